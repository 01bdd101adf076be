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
