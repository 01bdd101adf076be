import { describe, expect, it } from 'vitest';
import {
  addRow,
  cadenceMs,
  closeSeries,
  DAY_MS,
  daysIn,
  HOUR_MS,
  hoursIn,
  newSeries,
  noteCadence,
  onBoundaries,
  originOf,
  slotsIn,
  unitOf,
} from '../../src/report/series.js';

const MIN = 60_000;
const FROM = Date.parse('2026-10-01T00:00:00Z');

describe('the report’s clock', () => {
  it('counts from midnight on the clock --from was written with', () => {
    const moscow = {
      fromMs: Date.parse('2026-10-01T10:00:00+03:00'),
      toMs: FROM + DAY_MS,
      offsetMinutes: 180,
    };
    expect(new Date(originOf(moscow)).toISOString()).toBe('2026-09-30T21:00:00.000Z');
    expect(originOf({ fromMs: FROM + 5 * HOUR_MS, toMs: FROM + DAY_MS })).toBe(FROM);
    expect(unitOf(moscow, DAY_MS, Date.parse('2026-10-01T21:00:00Z'))).toBe(1);
  });

  it('counts the slots, hours and days a period touches, the partial ones at its edges included', () => {
    const p = { fromMs: FROM + 10 * MIN, toMs: FROM + DAY_MS + 30 * MIN };
    expect(slotsIn(p)).toBe(72 + 2);
    expect(hoursIn(p)).toBe(25);
    expect(daysIn(p)).toBe(2);
  });

  it('says whether a period starts and ends on the clock’s boundaries', () => {
    expect(onBoundaries({ fromMs: FROM, toMs: FROM + DAY_MS }, DAY_MS)).toBe(true);
    expect(onBoundaries({ fromMs: FROM + 20 * MIN, toMs: FROM + DAY_MS }, 20 * MIN)).toBe(true);
    expect(onBoundaries({ fromMs: FROM + 20 * MIN, toMs: FROM + DAY_MS }, DAY_MS)).toBe(false);
    expect(
      onBoundaries({ fromMs: FROM - 3 * HOUR_MS, toMs: FROM + 21 * HOUR_MS, offsetMinutes: 180 }, DAY_MS),
    ).toBe(true);
  });
});

describe('a series', () => {
  const period = { fromMs: FROM, toMs: FROM + 2 * DAY_MS };

  it('makes each 20-minute slot’s mean a single value, and each day’s mean the mean of its hours', () => {
    const s = newSeries(period);
    // Hour 0: four rows of 100 in the first slot; hour 1: one row of 400.
    for (const m of [0, 5, 10, 15]) addRow(s, { atMs: FROM + m * MIN, value: 100 });
    addRow(s, { atMs: FROM + HOUR_MS + 20 * MIN, value: 400 });
    closeSeries(s);
    expect(s.singles).toEqual([100, 400]);
    expect(s.singleSlots).toEqual([0, 4]);
    expect(s.dayHourSums[0]).toBe(500);
    expect(s.dayHours[0]).toBe(2);
    expect(s.dayRowSums[0]).toBe(800);
    expect(s.dayRows[0]).toBe(5);
    expect(s.rows).toBe(5);
  });

  it('leaves a negative concentration out of every figure, counting it, while it still tells the cadence', () => {
    const s = newSeries(period);
    addRow(s, { atMs: FROM, value: 10 });
    addRow(s, { atMs: FROM + 5 * MIN, value: -1 });
    addRow(s, { atMs: FROM + 10 * MIN, value: 30 });
    closeSeries(s);
    expect(s.impossible).toBe(1);
    expect(s.rows).toBe(2);
    expect(s.singles).toEqual([20]);
    expect(cadenceMs(s)).toBe(5 * MIN);
  });

  it('takes the median gap between rows as the cadence, rows around the period included', () => {
    const s = newSeries(period);
    expect(cadenceMs(s)).toBeUndefined();
    noteCadence(s, FROM - HOUR_MS);
    for (let i = 0; i < 5; i++) addRow(s, { atMs: FROM + i * HOUR_MS, value: 1 });
    addRow(s, { atMs: FROM + 5 * HOUR_MS + 5 * MIN, value: 1 });
    expect(cadenceMs(s)).toBe(HOUR_MS);
  });
});
