import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KEY_FRAGMENT_CHARS, Secret, scrub } from '../../src/config/secret.js';

const KEY = 'sk-live-0123456789abcdef';

describe('Secret', () => {
  it('gives the key only to reveal()', () => {
    const secret = new Secret(KEY);
    expect(secret.reveal()).toBe(KEY);
    const printed = [
      `${secret}`,
      JSON.stringify({ secret }),
      inspect({ config: { secret } }),
      String(secret),
    ];
    for (const text of printed) expect(text).not.toContain(KEY.slice(0, KEY_FRAGMENT_CHARS));
    expect(JSON.stringify({ secret })).toBe('{"secret":"[REDACTED]"}');
  });
});

describe('scrub', () => {
  const secret = new Secret(KEY);

  it('replaces every occurrence of the key', () => {
    expect(scrub(`a ${KEY} b ${KEY}`, secret)).toBe('a [REDACTED] b [REDACTED]');
  });

  it('replaces a run of the key’s characters as long as a fragment, as an echoed half key', () => {
    expect(scrub('key 0123456789 refused', secret)).toBe('key [REDACTED] refused');
    expect(scrub(`bad key ${KEY.slice(-KEY_FRAGMENT_CHARS)}!`, secret)).toBe('bad key [REDACTED]!');
  });

  it('leaves shorter runs alone', () => {
    const short = KEY.slice(3, 3 + KEY_FRAGMENT_CHARS - 1);
    expect(scrub(`x ${short} y`, secret)).toBe(`x ${short} y`);
  });

  it('leaves text alone without a key', () => {
    expect(scrub(KEY, undefined)).toBe(KEY);
    expect(scrub(KEY, new Secret(''))).toBe(KEY);
  });
});
