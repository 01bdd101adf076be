import { describe, expect, it } from 'vitest';
import { countRows, newStats } from '../../src/backfill/stats.js';
import type { RowReading } from '../../src/readings/schema.js';

const row = (atMs: number, skipped: RowReading['skipped'] = []): RowReading => ({
  reading: {
    id: 1,
    atMs,
    concentrations: new Map(),
    temperatureCelsius: undefined,
    humidityRatio: undefined,
    pressurePascals: undefined,
    aqi: new Map(),
  },
  skipped,
});

describe('newStats', () => {
  it('starts at zero with every skip reason counted', () => {
    const stats = newStats(1234);
    expect(stats).toMatchObject({ startedAtMs: 1234, rows: 0, samples: 0, firstRowMs: undefined });
    expect(Object.values(stats.skipped).every((n) => n === 0)).toBe(true);
    expect(Object.keys(stats.skipped)).toContain('unknown_unit');
  });
});

describe('countRows', () => {
  it('counts rows, samples and the span they cover, in whatever order they come', () => {
    const stats = newStats(0);
    countRows(stats, [row(500), row(100)], 12);
    countRows(stats, [row(900)], 6);
    expect(stats).toMatchObject({ rows: 3, samples: 18, firstRowMs: 100, lastRowMs: 900 });
  });

  it('counts fields left out by reason, and keeps each unknown unit once, twenty at most', () => {
    const stats = newStats(0);
    const unknown = (i: number) => ({ field: 'co', reason: 'unknown_unit' as const, unit: `u${i}` });
    countRows(stats, [row(1, [unknown(0), unknown(0), { field: 'pm10', reason: 'missing' }])], 0);
    expect(stats.skipped).toMatchObject({ unknown_unit: 2, missing: 1 });
    expect([...stats.unknownUnits.values()]).toEqual([{ field: 'co', unit: 'u0' }]);
    countRows(
      stats,
      Array.from({ length: 30 }, (_, i) => row(2, [unknown(i)])),
      0,
    );
    expect(stats.unknownUnits.size).toBe(20);
    expect(stats.skipped.unknown_unit).toBe(32);
  });
});
