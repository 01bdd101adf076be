// The reader over a store held in memory: what it does with the store's series beyond plain rows.
import { describe, expect, it } from 'vitest';
import { gapMessage } from '../../src/report/messages.js';
import { readReport } from '../../src/report/read.js';
import { type MemorySeries, memoryStore } from '../support/memory-store.js';

const FROM = Date.parse('2026-10-01T00:00:00Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const period = { fromMs: FROM, toMs: FROM + DAY };
const CONC = 'cityair_concentration_micrograms_per_cubic_meter';
const base = { job: 'cityair', instance: 'x' };

const conc = (id: string, values: readonly number[], stepMs = 5 * MIN): MemorySeries => ({
  labels: { __name__: CONC, ...base, id, substance: 'no2' },
  samples: values.map((value, i) => ({ atMs: FROM + i * stepMs, value })),
});
const rowTimes = (id: string, count: number, stepMs = 5 * MIN): MemorySeries => ({
  labels: { __name__: 'cityair_measurement_timestamp_seconds', ...base, id },
  samples: Array.from({ length: count }, (_, i) => ({
    atMs: FROM + i * stepMs,
    value: (FROM + i * stepMs) / 1000,
  })),
});
const request = { period, matchers: [['job', 'cityair']] as const, stations: undefined };

describe('the reader', () => {
  it('counts rows 100, 100, 300, 100 as four rows when the row time is there: mean 150', async () => {
    const store = memoryStore([conc('1', [100, 100, 300, 100]), rowTimes('1', 4)]);
    const report = await readReport(store, request);
    expect(report.gaps).toEqual([]);
    expect(report.stations[0]?.series[0]?.rows).toBe(4);
    expect(report.stations[0]?.series[0]?.mean).toBe(150);
  });

  it('without the row time, counts none of them (never 200) and marks the station incomplete with the reason', async () => {
    const store = memoryStore([conc('1', [100, 100, 300, 100])]);
    const report = await readReport(store, request);
    const series = report.stations[0]?.series[0];
    expect(series?.rows).toBe(0);
    expect(series?.mean).toBeUndefined();
    expect(report.gaps).toHaveLength(1);
    expect(report.gaps[0]).toMatchObject({ stationId: '1', fromMs: FROM, toMs: FROM + 15 * MIN });
    expect(report.gaps[0]?.message).toBe(
      '4 samples of no2 have no cityair_measurement_timestamp_seconds beside them in the store, so rows cannot be told from repeated scrapes; they are not counted',
    );
  });

  it('takes a row time of NaN as no row time: the sample is not counted and the station is incomplete', async () => {
    const times = rowTimes('1', 4);
    const broken = {
      ...times,
      samples: times.samples.map((x, i) => (i === 2 ? { ...x, value: Number.NaN } : x)),
    };
    const report = await readReport(memoryStore([conc('1', [100, 100, 300, 100]), broken]), request);
    expect(report.stations[0]?.series[0]?.rows).toBe(3);
    expect(report.gaps.map((g) => g.message)).toEqual([
      '1 samples of no2 have no cityair_measurement_timestamp_seconds beside them in the store, so rows cannot be told from repeated scrapes; they are not counted',
    ]);
    expect(report.gaps.map((g) => gapMessage(g, 'ru'))).toEqual([
      'не учтено 1 отсчёт no2 без cityair_measurement_timestamp_seconds рядом в хранилище: строки не отличить от повторных опросов',
    ]);
  });

  const info = (id: string, name: string): MemorySeries => ({
    labels: { __name__: 'cityair_station_info', ...base, id, name },
    samples: [{ atMs: FROM, value: 1 }],
  });

  it('lists a station known only from its info series at 0 % capture, the report still complete', async () => {
    const store = memoryStore([conc('1', [100]), rowTimes('1', 1), info('1', 'A'), info('5', 'Пусто')]);
    const report = await readReport(store, request);
    expect(report.gaps).toEqual([]);
    expect(
      report.stations.map((s) => [s.id, s.name, s.series.map((f) => [f.substance, f.rows, f.capture])]),
    ).toEqual([
      ['1', 'A', [['no2', 1, 1 / 24]]],
      ['5', 'Пусто', [['', 0, 0]]],
    ]);
    expect(report.network.capture?.lowest).toMatchObject({ stationId: '5', value: 0 });
  });

  it('lists stations asked for without readings (one with info only, one unknown) and says nothing matched', async () => {
    const store = memoryStore([conc('1', [100]), rowTimes('1', 1), info('5', 'Пусто')]);
    const report = await readReport(store, { ...request, stations: [5, 99] });
    expect(report.stations.map((s) => [s.id, s.series[0]?.capture])).toEqual([
      ['5', 0],
      ['99', 0],
    ]);
    expect(report.gaps.map((g) => [g.stationId, g.message])).toEqual([
      ['5', 'no readings in the store for the period'],
      ['99', 'no readings in the store for the period'],
      [undefined, 'no readings in the store match the selection'],
    ]);
  });

  it('says so when a label matches nothing', async () => {
    const store = memoryStore([conc('1', [100]), rowTimes('1', 1)]);
    const report = await readReport(store, { ...request, matchers: [['instance', 'nothing']] });
    expect(report.stations).toEqual([]);
    expect(report.gaps.map((g) => g.message)).toEqual(['no readings in the store match the selection']);
  });
});

describe('rows stored late and rows scraped twice', () => {
  const TO = FROM + 7 * DAY;
  const STEP = 5 * MIN;
  const LATE_ROW = FROM + 2 * DAY + 12 * 60 * MIN;
  // 5-minute rows at 50 over a week, each stored at its own time; the row at day 2 12:00 holds 900 and is stored
  // 50 hours after its time, once (past the two-day lag).
  const late = (): MemorySeries[] => {
    const times = Array.from({ length: (7 * DAY) / STEP }, (_, i) => FROM + i * STEP);
    const at = (t: number): number => (t === LATE_ROW ? t + 50 * 60 * MIN + 10_000 : t);
    const labels = { ...base, id: '120' };
    return [
      {
        labels: { __name__: CONC, ...labels, substance: 'no2' },
        samples: times
          .map((t) => ({ atMs: at(t), value: t === LATE_ROW ? 900 : 50 }))
          .sort((a, b) => a.atMs - b.atMs),
      },
      {
        labels: { __name__: 'cityair_measurement_timestamp_seconds', ...labels },
        samples: times.map((t) => ({ atMs: at(t), value: t / 1000 })).sort((a, b) => a.atMs - b.atMs),
      },
    ];
  };

  it('leaves out a row stored over a day after its time, and says so, whatever --from cuts the chunks', async () => {
    const seen = [];
    for (const fromMs of [FROM, FROM + DAY, FROM + 2 * DAY, FROM + DAY + 7 * 60 * MIN]) {
      const report = await readReport(memoryStore(late()), { ...request, period: { fromMs, toMs: TO } });
      const s = report.stations[0]?.series[0];
      seen.push([s?.single?.max, report.lateSamples]);
    }
    expect(seen).toEqual(Array(4).fill([50, 1]));
  });

  it('takes the later scrape of a row when two exporters scrape it, whichever series comes first', async () => {
    const rows = Array.from({ length: 72 }, (_, i) => FROM + i * 20 * MIN);
    const of = (instance: string, first: (i: number) => boolean): MemorySeries[] => {
      const labels = { job: 'cityair', instance, id: '121' };
      const at = (t: number, i: number): number => t + (first(i) ? 0 : 30_000);
      return [
        {
          labels: { __name__: CONC, ...labels, substance: 'no2' },
          samples: rows.map((t, i) => ({ atMs: at(t, i), value: first(i) ? 100 : 300 })),
        },
        {
          labels: { __name__: 'cityair_measurement_timestamp_seconds', ...labels },
          samples: rows.map((t, i) => ({ atMs: at(t, i), value: t / 1000 })),
        },
      ];
    };
    const store = memoryStore([...of('a', (i) => i % 2 === 0), ...of('b', (i) => i % 2 === 1)]);
    const report = await readReport(store, request);
    expect(report.stations[0]?.series[0]).toMatchObject({ rows: 72, mean: 300 });
  });
});

describe('the cadence of a station', () => {
  it('learns daily rows (each published 34 h after its day starts) from the rows around a period holding one: daily, 100 %, one valid day', async () => {
    const days = [-3, -2, -1, 0, 1, 2].map((d) => FROM + d * DAY);
    const labels = { ...base, id: '112' };
    const store = memoryStore([
      {
        labels: { __name__: CONC, ...labels, substance: 'pm2.5' },
        samples: days.map((t) => ({ atMs: t + 34 * 60 * MIN, value: 41 })),
      },
      {
        labels: { __name__: 'cityair_measurement_timestamp_seconds', ...labels },
        samples: days.map((t) => ({ atMs: t + 34 * 60 * MIN, value: t / 1000 })),
      },
    ]);
    const report = await readReport(store, request);
    expect(report.stations[0]?.series[0]).toMatchObject({
      resolution: 'daily',
      rows: 1,
      capture: 1,
      validDays: 1,
      daysAboveDailyNorm: 1,
      whoDaysAbove: 1,
    });
  });
});

describe('a station of one row and none around it', () => {
  it('says its cadence is unknown rather than guess hourly, its figures those of hourly rows', async () => {
    const report = await readReport(memoryStore([conc('1', [100]), rowTimes('1', 1)]), request);
    expect(report.stations[0]?.series[0]).toMatchObject({ resolution: 'unknown', rows: 1, capture: 1 / 24 });
  });
});
