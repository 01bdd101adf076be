// Label text from the API: short names take a quick path, which must make exactly what the long way makes.
import { describe, expect, it } from 'vitest';
import { labelText } from '../../src/stations/label-text.js';

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
