// Slots, hours and days on the report's clock, whatever --from is: the same rows give the same figures.
import { describe, expect, it } from 'vitest';
import { figuresOfRows } from '../../src/report/figures.js';
import type { Row } from '../../src/report/rows.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// 2026-10-01T00:00:00+03:00
const MIDNIGHT = Date.parse('2026-09-30T21:00:00Z');

/** NO₂ 5-minute rows for two local days: 40 µg/m³, and a spike of 2000 filling the 12:00–12:20 slot of day 1. */
function spikeRows(): Row[] {
  const out: Row[] = [];
  for (let t = MIDNIGHT; t < MIDNIGHT + 2 * DAY; t += 5 * MIN) {
    const inSpike = t >= MIDNIGHT + 12 * HOUR && t < MIDNIGHT + 12 * HOUR + 20 * MIN;
    out.push({ atMs: t, value: inSpike ? 2000 : 40 });
  }
  return out;
}

describe('clock slots and days', () => {
  it('keeps a spike in its clock slot when --from is 10 minutes off the slot (СИ 10, not 5.3)', () => {
    const onSlot = figuresOfRows('no2', spikeRows(), {
      fromMs: MIDNIGHT,
      toMs: MIDNIGHT + 2 * DAY,
      offsetMinutes: 180,
    });
    const shifted = figuresOfRows(
      'no2',
      spikeRows().filter((r) => r.atMs >= MIDNIGHT + 10 * MIN),
      { fromMs: MIDNIGHT + 10 * MIN, toMs: MIDNIGHT + 2 * DAY, offsetMinutes: 180 },
    );
    expect(onSlot.single?.si).toBe(10);
    expect(shifted.single?.si).toBe(10);
    expect(shifted.single?.maxAtMs).toBe(MIDNIGHT + 12 * HOUR);
    expect(shifted.single?.above).toEqual(onSlot.single?.above);
    // The first slot (00:00–00:20) is cut by --from: it still counts, from its rows inside the period.
    expect(shifted.single?.count).toBe(144);
    expect(shifted.capture).toBe(1);
  });

  it('counts days from midnight of the report’s clock, not from --from', () => {
    // --from at 06:00 local: day 1 holds 18 hours inside the period (valid), day 2 all 24.
    const from = MIDNIGHT + 6 * HOUR;
    const f = figuresOfRows(
      'no2',
      spikeRows().filter((r) => r.atMs >= from),
      { fromMs: from, toMs: MIDNIGHT + 2 * DAY, offsetMinutes: 180 },
    );
    expect(f.days).toBe(2);
    expect(f.validDays).toBe(2);
    expect(f.chart.dayStartMs).toBe(MIDNIGHT);
    // Day 1's mean: 17 hours of 40 and the spike hour, (40 × 2 + 2000) / 3.
    expect(f.chart.daily[0]).toBeCloseTo((17 * 40 + (2 * 40 + 2000) / 3) / 18, 9);
    expect(f.chart.daily[1]).toBe(40);
  });

  it('takes UTC days for a period given in UTC, and local days for the same instants given at +03:00', () => {
    const period = { fromMs: MIDNIGHT, toMs: MIDNIGHT + 2 * DAY };
    const utc = figuresOfRows('no2', spikeRows(), { ...period, offsetMinutes: 0 });
    const local = figuresOfRows('no2', spikeRows(), { ...period, offsetMinutes: 180 });
    expect(local.days).toBe(2);
    // 21:00 UTC to 21:00 UTC two days later touches three UTC days: 3 h, 24 h and 21 h inside.
    expect(utc.days).toBe(3);
    expect(utc.validDays).toBe(2);
  });
});
