// Live scrapes and backfilled samples back into rows: one row per row time, whatever series or chunk it came in.
import { describe, expect, it } from 'vitest';
import { figuresOfRows } from '../../src/report/figures.js';
import { addSamples, newRowBuffer, releaseRows } from '../../src/report/rows.js';

const FROM = Date.parse('2026-10-01T00:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('rows from the store', () => {
  const period = { fromMs: FROM, toMs: FROM + DAY };

  it('counts a live row scraped every 30 s once, beside a backfilled row, by its own time', () => {
    const buffer = newRowBuffer();
    // Backfilled: 00:00 and 00:05, one sample each at the row's time. Live: the 00:10 and 00:15 rows, each
    // scraped ten times (every 30 s) with the timestamp series holding the row's time.
    const backfilled = [
      { atMs: FROM, value: 100 },
      { atMs: FROM + 5 * MIN, value: 200 },
    ];
    const live = Array.from({ length: 20 }, (_, i) => ({
      atMs: FROM + 10 * MIN + 30_000 * i + 7_000,
      value: i < 10 ? 300 : 400,
    }));
    const rowTime = (atMs: number): number =>
      atMs < FROM + 10 * MIN ? atMs : FROM + (atMs < FROM + 15 * MIN + 7_000 ? 10 : 15) * MIN;
    addSamples(buffer, 'no2', [...backfilled, ...live], rowTime, period, DAY);
    const released = releaseRows(buffer, period.toMs).get('no2') ?? [];
    expect(released).toEqual([
      { atMs: FROM, value: 100 },
      { atMs: FROM + 5 * MIN, value: 200 },
      { atMs: FROM + 10 * MIN, value: 300 },
      { atMs: FROM + 15 * MIN, value: 400 },
    ]);
    const f = figuresOfRows('no2', released, period);
    expect(f.single?.max).toBe(250);
  });

  it('keeps a row scraped across two chunks once; a sample before its row time or over a day after it is left out', () => {
    const buffer = newRowBuffer();
    const at = () => FROM + HOUR - 5 * MIN;
    addSamples(buffer, 'no2', [{ atMs: FROM + HOUR - 10_000, value: 1 }], at, period, DAY);
    releaseRows(buffer, FROM);
    addSamples(buffer, 'no2', [{ atMs: FROM + HOUR + 20_000, value: 1 }], at, period, DAY);
    expect(releaseRows(buffer, FROM + 2 * HOUR).get('no2')).toEqual([
      { atMs: FROM + HOUR - 5 * MIN, value: 1 },
    ]);
    const row = () => FROM + 30 * MIN;
    addSamples(buffer, 'no2', [{ atMs: FROM + 30 * MIN + DAY, value: 7 }], row, period, DAY);
    addSamples(buffer, 'no2', [{ atMs: FROM + 30 * MIN + DAY + 1, value: 8 }], row, period, DAY);
    addSamples(buffer, 'no2', [{ atMs: FROM + 29 * MIN, value: 9 }], row, period, DAY);
    expect(releaseRows(buffer, period.toMs).get('no2')).toEqual([{ atMs: FROM + 30 * MIN, value: 7 }]);
    expect(buffer.late).toBe(2);
  });

  it('keeps the value of the latest sample of a row whatever series it came from; at one instant the higher', () => {
    const buffer = newRowBuffer();
    const row = () => FROM;
    addSamples(buffer, 'no2', [{ atMs: FROM + 60_000, value: 300 }], row, period, DAY);
    addSamples(buffer, 'no2', [{ atMs: FROM + 30_000, value: 100 }], row, period, DAY);
    addSamples(buffer, 'no2', [{ atMs: FROM + 5 * MIN, value: 50 }], () => FROM + 5 * MIN, period, DAY);
    addSamples(buffer, 'no2', [{ atMs: FROM + 5 * MIN, value: 60 }], () => FROM + 5 * MIN, period, DAY);
    addSamples(buffer, 'no2', [{ atMs: FROM + 5 * MIN, value: 40 }], () => FROM + 5 * MIN, period, DAY);
    expect(releaseRows(buffer, period.toMs).get('no2')).toEqual([
      { atMs: FROM, value: 300 },
      { atMs: FROM + 5 * MIN, value: 60 },
    ]);
  });

  it('without the timestamp series, counts no row (equal values may be distinct rows) and tallies the samples', () => {
    const buffer = newRowBuffer();
    const samples = [100, 100, 300, 100].map((value, i) => ({ atMs: FROM + i * 5 * MIN, value }));
    addSamples(buffer, 'co', [...samples, { atMs: FROM + DAY, value: 5 }], () => undefined, period, DAY);
    expect(releaseRows(buffer, period.toMs).get('co')).toEqual([]);
    expect(buffer.unpaired.get('co')).toEqual({ count: 4, firstMs: FROM, lastMs: FROM + 15 * MIN });
  });
});
