// The report's figures from plain rows, against values worked out by hand (the spec's examples among them).
import { describe, expect, it } from 'vitest';
import { levelBy } from '../../src/norms/reporting.js';
import { figuresOfRows, nearestRank } from '../../src/report/figures.js';
import { networkFigures, roundTo, type StationFigures } from '../../src/report/network.js';
import { reportNotes } from '../../src/report/notes.js';
import { formatIndicator } from '../../src/report/numbers.js';
import type { Row } from '../../src/report/rows.js';

const FROM = Date.parse('2026-10-01T00:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const month = { fromMs: FROM, toMs: FROM + 31 * DAY };

/** Rows every `stepMs` from FROM, `count` of them, valued by `value(i)`. */
const rows = (count: number, stepMs: number, value: (i: number) => number, start = FROM): Row[] =>
  Array.from({ length: count }, (_, i) => ({ atMs: start + i * stepMs, value: value(i) }));

describe('single values and СИ', () => {
  it('gives NO₂ a maximum of 0.46 mg/m³ СИ 2.3, and the network the CO station’s 2.4 (the spec’s example)', () => {
    const no2 = figuresOfRows(
      'no2',
      rows(72, 20 * MIN, (i) => (i === 30 ? 460 : 50)),
      month,
    );
    const co = figuresOfRows(
      'co',
      rows(72, 20 * MIN, (i) => (i === 5 ? 12_000 : 400)),
      month,
    );
    expect(no2.resolution).toBe('single');
    expect(no2.single?.max).toBe(460);
    expect(no2.single?.maxAtMs).toBe(FROM + 30 * 20 * MIN);
    expect(roundTo(no2.single?.si ?? 0, 1)).toBe(2.3);
    const stations: StationFigures[] = [
      { id: '1', name: 'Центр', series: [no2] },
      { id: '2', name: 'Промзона', series: [co] },
    ];
    const network = networkFigures(stations, month);
    expect(network.si).toMatchObject({ value: 2.4, stationId: '2', substance: 'co' });
    expect(network.levels.find((l) => l.indicator === 'si')).toEqual({
      indicator: 'si',
      value: 2.4,
      level: 2,
    });
  });

  it('makes a single value the mean of a 20-minute slot of 5-minute rows', () => {
    // Four rows per slot: 100, 200, 300, 400 → 250 µg/m³; the next slot all 100.
    const f = figuresOfRows(
      'no2',
      rows(8, 5 * MIN, (i) => (i < 4 ? (i + 1) * 100 : 100)),
      month,
    );
    expect(f.single?.count).toBe(2);
    expect(f.single?.max).toBe(250);
    expect(f.single?.si).toBe(1.25);
    expect(f.single?.above).toEqual([1, 0, 0]);
  });

  it('counts П of 46 values above 0.2 mg/m³ among 2,000 as 2.3 %, a value on the norm not above it', () => {
    const f = figuresOfRows(
      'no2',
      rows(2000, 20 * MIN, (i) => (i < 46 ? 250 : i === 46 ? 200 : 100)),
      { fromMs: FROM, toMs: FROM + 2000 * 20 * MIN },
    );
    expect(f.single?.count).toBe(2000);
    expect(f.single?.p).toBeCloseTo(2.3, 10);
    expect(f.capture).toBe(1);
  });

  it('counts values above 1, 5 and 10 ПДК м.р. and the time in each band', () => {
    // PM10, ПДК м.р. 300: 200 (≤1), 450 (1–2), 900 (2–5), 1800 (>5), 3300 (>10) and 300 (exactly 1: ≤ 1).
    const values = [200, 450, 900, 1800, 3300, 300];
    const f = figuresOfRows(
      'pm10',
      rows(6, 20 * MIN, (i) => values[i] as number),
      month,
    );
    expect(f.single?.above).toEqual([4, 2, 1]);
    expect(f.single?.bands?.map((b) => roundTo(b, 1))).toEqual([33.3, 16.7, 16.7, 33.3]);
    expect(f.single?.p).toBeCloseTo(400 / 6, 10);
  });

  it('gives a station of hourly rows no single values, no СИ and no П: means only', () => {
    const f = figuresOfRows(
      'no2',
      rows(48, HOUR, () => 150),
      month,
    );
    expect(f.resolution).toBe('hourly');
    expect(f.single).toBeUndefined();
    expect(f.mean).toBe(150);
    expect(f.meanOfDailyNorm).toBe(1.5);
    expect(f.daysAboveDailyNorm).toBe(2);
    expect(f.capture).toBeCloseTo(48 / (31 * 24), 12);
    const network = networkFigures([{ id: '1', name: 'A', series: [f] }], month);
    expect(network.si).toBeUndefined();
    expect(network.level).toBeUndefined();
  });

  it('has no СИ for a substance without ПДК м.р. but still its largest value', () => {
    const none = figuresOfRows(
      'nh3',
      rows(3, 20 * MIN, (i) => i * 10),
      month,
    );
    expect(none.single?.max).toBe(20);
    expect(none.single?.si).toBeUndefined();
  });
});

describe('daily means and data capture', () => {
  it('counts a day whose mean rests on 18 hours, not one on 17', () => {
    // Day 1: 18 hours of 120 (valid, above ПДК с.с. 100); day 2: 17 hours of 500 (not valid).
    const day1 = rows(18 * 3, 20 * MIN, () => 120);
    const day2 = rows(17 * 3, 20 * MIN, () => 500, FROM + DAY);
    const f = figuresOfRows('no2', [...day1, ...day2], month);
    expect(f.validDays).toBe(1);
    expect(f.daysAboveDailyNorm).toBe(1);
    expect(f.chart.daily.slice(0, 3)).toEqual([120, null, null]);
    // The period's mean weighs each hour the same: (18 × 120 + 17 × 500) / 35.
    expect(f.mean).toBeCloseTo((18 * 120 + 17 * 500) / 35, 10);
    expect(f.capture).toBeCloseTo((35 * 3) / (31 * 72), 12);
    expect(f.daysWithData).toBe(2);
  });

  it('weighs each hour the same in the mean, however many rows it holds', () => {
    // Hour 0: twelve 5-minute rows of 10; hour 1: one row of 40 (a 20-minute station would give three).
    const f = figuresOfRows(
      'pm10',
      [...rows(12, 5 * MIN, () => 10), { atMs: FROM + HOUR, value: 40 }],
      month,
    );
    expect(f.mean).toBe(25);
  });

  it('counts WHO days above the 24-hour guideline and the 99th percentile of daily means', () => {
    // PM2.5, WHO 24 h 15: 31 days of hourly rows valued at the day's number (1 … 31).
    const all = Array.from({ length: 31 }, (_, d) => rows(24, HOUR, () => d + 1, FROM + d * DAY)).flat();
    const f = figuresOfRows('pm2.5', all, month);
    expect(f.validDays).toBe(31);
    expect(f.whoDaysAbove).toBe(16);
    // ⌈0.99 × 31⌉ = 31st smallest.
    expect(f.whoP99).toBe(31);
    expect(f.daysAboveDailyNorm).toBe(0);
  });

  it('takes the nearest rank', () => {
    expect(
      nearestRank(
        Array.from({ length: 365 }, (_, i) => i + 1),
        0.99,
      ),
    ).toBe(362);
    expect(nearestRank([5], 0.99)).toBe(5);
    expect(nearestRank([], 0.99)).toBeUndefined();
  });
});

describe('a year', () => {
  const year = { fromMs: Date.parse('2025-01-01T00:00:00Z'), toMs: Date.parse('2026-01-01T00:00:00Z') };
  const hourly = (days: number, value: number): Row[] =>
    Array.from({ length: days * 24 }, (_, h) => ({ atMs: year.fromMs + h * HOUR, value }));

  it('gives ИЗА5 from annual means resting on 274 days, and the level it sets with the others', () => {
    // The spec's example as hourly rows at five substances; SO₂ on 273 days only, so no annual mean.
    const series = [
      figuresOfRows('o3', hourly(365, 36), year),
      figuresOfRows('no2', hourly(300, 50), year),
      figuresOfRows('pm10', hourly(274, 48), year),
      figuresOfRows('pm2.5', hourly(365, 30), year),
      figuresOfRows('co', hourly(365, 1500), year),
      figuresOfRows('so2', hourly(273, 500), year),
    ];
    expect(series.map((s) => s.annualValid)).toEqual([true, true, true, true, true, false]);
    const n = networkFigures([{ id: '1', name: 'A', series }], year);
    expect(n.iza?.terms.map((t) => t.substance)).toEqual(['o3', 'no2', 'pm10', 'pm2.5', 'co']);
    expect(roundTo(n.iza?.value ?? 0, 2)).toBe(5.55);
    // ИЗА 5.55 is повышенный; hourly rows give no СИ or НП, so ИЗА sets the level alone.
    expect(n.levels).toEqual([{ indicator: 'iza', value: n.iza?.value, level: 2 }]);
    expect(n.level).toEqual({ level: 2, setBy: ['iza'] });
  });

  it('gives no ИЗА for a month', () => {
    const n = networkFigures(
      [
        {
          id: '1',
          name: 'A',
          series: [
            figuresOfRows(
              'no2',
              rows(72, 20 * MIN, () => 50),
              month,
            ),
          ],
        },
      ],
      month,
    );
    expect(n.iza).toBeUndefined();
  });
});

describe('levels and printed figures agree', () => {
  const at = (i: number): number => FROM + i * 20 * MIN;
  const network = (rowsOf: Row[]) => {
    const f = figuresOfRows('no2', rowsOf, month);
    return { f, n: networkFigures([{ id: '1', name: 'A', series: [f] }], month) };
  };

  it('gives СИ 10.001 (one value above 10 ПДК м.р.) очень высокий and prints it 10,001, not 10,0', () => {
    const { f, n } = network([
      { atMs: at(0), value: 2000.2 },
      { atMs: at(1), value: 50 },
    ]);
    expect(f.single?.above).toEqual([1, 1, 1]);
    expect(n.levels.find((l) => l.indicator === 'si')?.level).toBe(4);
    expect(formatIndicator(f.single?.si, 'si', 'ru')).toBe('10,001');
    expect(formatIndicator(f.single?.si, 'si', 'en')).toBe('10.001');
  });

  it('gives one value at 1.04 ПДК м.р. among 3,000 повышенный by СИ and НП, printed 1,04 and 0,03', () => {
    const { f, n } = network(
      Array.from({ length: 3000 }, (_, i) => ({ atMs: at(i), value: i === 7 ? 208 : 50 })),
    );
    expect(f.single?.above).toEqual([1, 0, 0]);
    expect(n.levels.map((l) => [l.indicator, l.level])).toEqual([
      ['si', 2],
      ['np', 2],
    ]);
    expect(formatIndicator(f.single?.si, 'si', 'ru')).toBe('1,04');
    expect(formatIndicator(f.single?.p, 'np', 'ru')).toBe('0,03');
  });

  it('keeps the usual places off the edges and on them (СИ 2.34 → 2,3, 10 → 10,0), more near them (0.98 → 0,98)', () => {
    expect(formatIndicator(2.34, 'si', 'ru')).toBe('2,3');
    expect(formatIndicator(10, 'si', 'ru')).toBe('10,0');
    expect(formatIndicator(0.98, 'si', 'ru')).toBe('0,98');
    expect(levelBy('si', 0.98)).toBe(1);
    expect(formatIndicator(4.96, 'si', 'ru')).toBe('4,96');
    expect(levelBy('si', 4.96)).toBe(2);
    expect(formatIndicator(5.549, 'iza', 'en')).toBe('5.55');
  });
});

describe('no data', () => {
  it('gives no count of days above ПДК с.с. or WHO, rather than 0, without a valid day', () => {
    const f = figuresOfRows('pm10', [], month);
    expect(f.validDays).toBe(0);
    expect(f.daysAboveDailyNorm).toBeUndefined();
    expect(f.whoDaysAbove).toBeUndefined();
  });
});

describe('impossible values', () => {
  it('leaves a negative concentration out of every figure, counts it, and the notes say so', () => {
    // Four 20-minute rows: 100, −500, 200, 300 → hour means 150 and 300, mean 225 (−500 in it would give 0); three single values.
    const f = figuresOfRows(
      'co',
      rows(4, 20 * MIN, (i) => [100, -500, 200, 300][i] as number),
      month,
    );
    expect(f.rows).toBe(3);
    expect(f.impossibleRows).toBe(1);
    expect(f.mean).toBe(225);
    expect(f.single?.count).toBe(3);
    expect(f.resolution).toBe('single');
    const stations = [{ id: '4', name: 'Bad', series: [f] }];
    const report = {
      request: { period: month, matchers: [], stations: undefined },
      stations,
      network: networkFigures(stations, month),
      gaps: [],
      lateSamples: 0,
      queries: 0,
    };
    expect(reportNotes(report, 'en')).toContain(
      'Station Bad (4), co: 1 negative concentrations left out (a concentration cannot be negative).',
    );
    expect(reportNotes(report, 'ru')).toContain(
      'Станция Bad (4), co: не учтено 1 отрицательное значение концентрации (концентрация не может быть отрицательной).',
    );
    const late = (n: number) =>
      reportNotes({ ...report, lateSamples: n }, 'ru')
        .at(-1)
        ?.split(' строк')[0];
    expect([1, 2, 5, 11, 14, 21, 22, 112].map(late)).toEqual([
      'Не учтено: 1 отсчёт',
      'Не учтено: 2 отсчёта',
      'Не учтено: 5 отсчётов',
      'Не учтено: 11 отсчётов',
      'Не учтено: 14 отсчётов',
      'Не учтено: 21 отсчёт',
      'Не учтено: 22 отсчёта',
      'Не учтено: 112 отсчётов',
    ]);
  });
});
