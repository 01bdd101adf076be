import { describe, expect, it } from 'vitest';
import { escapeHtml, formatAge, formatUtc } from '../../src/status/html.js';

describe('escapeHtml', () => {
  it('makes text safe in element content and in quoted attributes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('turns control characters into spaces, keeping tab, line feed and any script', () => {
    expect(escapeHtml('a\u0000b\rc\u001bd\u007fe\u0085f\tg\nh Ж 😀')).toBe('a b c d e f\tg\nh Ж 😀');
  });
});

describe('formatAge', () => {
  it.each([
    [-5_000, '0 s'],
    [45_000, '45 s'],
    [119_000, '119 s'],
    [120_000, '2 min'],
    [12 * 60_000, '12 min'],
    [119 * 60_000, '119 min'],
    [5 * 3_600_000, '5 h'],
    [47 * 3_600_000, '47 h'],
    [3 * 86_400_000, '3 d'],
  ])('writes %i ms as %s', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });
});

describe('formatUtc', () => {
  it('writes a time in UTC to the second', () => {
    expect(formatUtc(Date.UTC(2026, 10, 23, 11, 59, 30, 999))).toBe('2026-11-23 11:59:30 UTC');
  });
});
