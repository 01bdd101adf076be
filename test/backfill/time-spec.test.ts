import { describe, expect, it } from 'vitest';
import { formatTime, parseRfc3339, resolveTime, timeSpec } from '../../src/backfill/time-spec.js';

describe('parseRfc3339', () => {
  it('reads a time with any offset, a space for T, and a fraction to the millisecond', () => {
    expect(parseRfc3339('2026-10-01T00:00:00Z')).toBe(Date.UTC(2026, 9, 1));
    expect(parseRfc3339('2026-10-01 07:00:00+07:00')).toBe(Date.UTC(2026, 9, 1));
    expect(parseRfc3339('2026-09-30t21:30:00-02:30')).toBe(Date.UTC(2026, 9, 1));
    expect(parseRfc3339('2026-10-01T00:00:00.123456789z')).toBe(Date.UTC(2026, 9, 1) + 123);
  });

  it('refuses a date or time that does not exist, rather than rolling it over', () => {
    for (const text of [
      '2026-04-31T00:00:00Z',
      '2026-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-10-01T24:00:00Z',
      '2026-10-01T00:60:00Z',
      '2026-10-01T00:00:00+24:00',
      '2026-10-01T00:00:00',
      '2026-10-01',
    ]) {
      expect(parseRfc3339(text), text).toBeUndefined();
    }
    expect(parseRfc3339('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
  });
});

describe('timeSpec and resolveTime', () => {
  const NOW = Date.UTC(2026, 10, 1);

  it('reads a time as itself and a duration as that long before now', () => {
    const at = timeSpec.parse(' 2026-10-01T00:00:00Z ');
    expect(at).toEqual({ kind: 'at', ms: Date.UTC(2026, 9, 1) });
    expect(resolveTime(at, NOW)).toBe(Date.UTC(2026, 9, 1));
    const ago = timeSpec.parse('30d');
    expect(ago).toEqual({ kind: 'ago', ms: 30 * 86_400_000 });
    expect(resolveTime(ago, NOW)).toBe(Date.UTC(2026, 9, 2));
  });

  it('refuses anything else, and a zero duration, in one line', () => {
    for (const text of ['yesterday', '0s', '2026-10-01']) {
      const r = timeSpec.safeParse(text);
      expect(r.success, text).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(
        `${JSON.stringify(text)} is neither an RFC 3339 time such as 2026-10-01T00:00:00Z nor a duration such as 30d or 36h`,
      );
    }
  });
});

describe('formatTime', () => {
  it('writes UTC to the second, or to the millisecond when the time has them', () => {
    expect(formatTime(Date.UTC(2026, 9, 1))).toBe('2026-10-01T00:00:00Z');
    expect(formatTime(Date.UTC(2026, 9, 1, 0, 0, 0, 250))).toBe('2026-10-01T00:00:00.250Z');
  });
});
