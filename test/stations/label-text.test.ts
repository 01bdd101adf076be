// Label text from the API: short names take a quick path, which must make exactly what the long way makes.
import { describe, expect, it } from 'vitest';
import { labelText, MAX_DESCRIPTION_BYTES, MAX_NAME_BYTES } from '../../src/stations/label-text.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('labelText', () => {
  it('keeps a short name as it is, trimmed', () => {
    expect(labelText('  Новосибирск, ул. Ленина 1 ', MAX_NAME_BYTES)).toBe('Новосибирск, ул. Ленина 1');
  });

  it('turns control characters, line separators and bidi overrides into spaces', () => {
    expect(labelText('a\nb\tc\u0000d\u007fe\u0085f\u2028g\u202eh\u2066i', 100)).toBe('a b c d e f g h i');
  });

  it('replaces a lone surrogate, and keeps a pair', () => {
    expect(labelText('a\ud800b\udc00c😀', 100)).toBe('a\ufffdb\ufffdc😀');
  });

  it('cuts to the byte cap between characters, ending in an ellipsis', () => {
    const latin = labelText('x'.repeat(300), MAX_NAME_BYTES);
    expect(latin).toBe(`${'x'.repeat(253)}…`);
    expect(bytes(latin)).toBe(256);
    const cyrillic = labelText('ж'.repeat(200), MAX_NAME_BYTES);
    expect(bytes(cyrillic)).toBeLessThanOrEqual(256);
    expect(cyrillic).toBe(`${'ж'.repeat(126)}…`);
    const emoji = labelText('😀'.repeat(200), MAX_DESCRIPTION_BYTES);
    expect(bytes(emoji)).toBeLessThanOrEqual(512);
    expect(emoji.endsWith('😀…')).toBe(true);
  });

  it('keeps text of exactly the cap whole', () => {
    expect(labelText('ж'.repeat(128), MAX_NAME_BYTES)).toBe('ж'.repeat(128));
  });

  it('bounds a huge name without holding on to it', () => {
    const huge = 'y'.repeat(10_000_000);
    expect(labelText(huge, MAX_NAME_BYTES)).toHaveLength(254);
  });
});

const CONTROLS = [
  0x00, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x85, 0x9f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069,
];

describe('labelText of a short name', () => {
  it.each(CONTROLS)('turns control U+%s into a space', (code) => {
    expect(labelText(`a${String.fromCharCode(code)}b`, 256)).toBe('a b');
  });
  it('turns a lone surrogate into U+FFFD and keeps a pair', () => {
    expect(labelText('a\ud800b\udc00c', 256)).toBe('a\ufffdb\ufffdc');
    expect(labelText('smog 😷', 256)).toBe('smog 😷');
  });
  it('trims the ends, also where a control character stood', () => {
    expect(labelText('  Москва \u0000', 256)).toBe('Москва');
  });
  it('keeps a name at the cap whole and cuts one over it', () => {
    expect(labelText('ж'.repeat(128), 256)).toBe('ж'.repeat(128));
    expect(labelText('ж'.repeat(129), 256)).toBe(`${'ж'.repeat(126)}…`);
  });
});
