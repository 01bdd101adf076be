import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatIndicator,
  formatNumber,
  formatTime,
  indicatorDecimals,
  offsetText,
} from '../../src/report/numbers.js';

describe('the report’s numbers', () => {
  it('writes numbers with a decimal comma in Russian, rounded half away from zero, grouped when asked', () => {
    expect(formatNumber(2.35, 1, 'ru')).toBe('2,4');
    expect(formatNumber(2.35, 1, 'en')).toBe('2.4');
    expect(formatNumber(12_345.67, 1, 'ru', true)).toBe('12\u00a0345,7');
    expect(formatNumber(12_345.67, 0, 'en', true)).toBe('12,346');
    expect(formatNumber(undefined, 1, 'ru')).toBe('');
    expect(formatTime(Date.parse('2026-10-02T09:00:00Z'), 180)).toBe('2026-10-02 12:00 UTC+03:00');
  });

  it('writes a negative number with its sign before the groups', () => {
    expect(formatNumber(-12_345.5, 1, 'en', true)).toBe('-12,345.5');
    expect(formatNumber(Number.NaN, 1, 'en')).toBe('');
  });

  it('prints an indicator with more places only where rounding would put it on a level edge it is not on', () => {
    expect(formatIndicator(2.34, 'si', 'ru')).toBe('2,3');
    expect(formatIndicator(10, 'si', 'ru')).toBe('10,0');
    expect(formatIndicator(10.001, 'si', 'en')).toBe('10.001');
    expect(formatIndicator(0.03, 'np', 'en')).toBe('0.03');
    expect(formatIndicator(4.999, 'iza', 'en')).toBe('4.999');
    expect(indicatorDecimals(0.98, 'si')).toBe(2);
    expect(formatIndicator(undefined, 'si', 'en')).toBe('');
  });

  it('writes dates and offsets on the report’s clock', () => {
    const ms = Date.parse('2026-10-01T22:30:00Z');
    expect(formatDate(ms, 180)).toBe('2026-10-02');
    expect(formatDate(ms, 0)).toBe('2026-10-01');
    expect(formatTime(ms, -210)).toBe('2026-10-01 19:00 UTC-03:30');
    expect(offsetText(0)).toBe('UTC');
    expect(offsetText(345)).toBe('UTC+05:45');
  });
});
