import { describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { excerpt, withoutKey } from '../../src/upstream/upstream-text.js';

const KEY = 'k3y/With+Slash';
const secret = new Secret(KEY);

describe('withoutKey', () => {
  it('takes out every occurrence of the key, also as JSON escapes its slash', () => {
    expect(withoutKey(`a ${KEY} b "k3y\\/With+Slash" c`, secret)).toBe('a [REDACTED] b "[REDACTED]" c');
  });

  it('leaves text alone without a key', () => {
    expect(withoutKey(`a ${KEY}`, undefined)).toBe(`a ${KEY}`);
  });
});

describe('excerpt', () => {
  it('makes one line: controls become spaces, JSON escapes are read', () => {
    expect(excerpt('bad\nkey\\tthere\\u0021', undefined, 100)).toBe('bad key there!');
  });

  it('finds the key hidden behind JSON escapes', () => {
    const hidden = 'denied: k3y\\/With\\u002BSlash';
    expect(excerpt(hidden, secret, 100)).toBe('denied: [REDACTED]');
  });

  it('removes a run of the key’s characters, as an echoed half of a key', () => {
    expect(excerpt('bad key k3y/Wit', secret, 100)).toBe('bad key [REDACTED]');
  });

  it('cuts to at most max characters, ending in an ellipsis', () => {
    const line = excerpt('x'.repeat(50), undefined, 10);
    expect(line).toBe(`${'x'.repeat(9)}…`);
  });

  it('never cuts a surrogate pair in half', () => {
    const line = excerpt(`${'x'.repeat(8)}😀😀`, undefined, 10);
    expect(line).toBe(`${'x'.repeat(8)}…`);
    expect(line.length).toBeLessThanOrEqual(10);
  });

  it('removes the key before cutting, so no half of it is left at the edge', () => {
    const line = excerpt(`${'y'.repeat(5)}${KEY}`, secret, 12);
    expect(line).not.toContain('k3y');
  });
});
