// The network's figures: ИЗА from the stations' annual means, and the level that applies.
import { describe, expect, it } from 'vitest';
import { levelBy } from '../../src/norms/reporting.js';
import { figuresOfRows } from '../../src/report/figures.js';
import { izaOf, networkFigures, roundTo, type StationFigures } from '../../src/report/network.js';
import type { Row } from '../../src/report/rows.js';

const FROM = Date.parse('2026-10-01T00:00:00Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const month = { fromMs: FROM, toMs: FROM + 31 * DAY };

/** Rows every `stepMs` from FROM, `count` of them, valued by `value(i)`. */
const rows = (count: number, stepMs: number, value: (i: number) => number, start = FROM): Row[] =>
  Array.from({ length: count }, (_, i) => ({ atMs: start + i * stepMs, value: value(i) }));

describe('ИЗА and the levels', () => {
  const annual = (substance: string, mean: number) =>
    ({ substance, mean, annualValid: true }) as unknown as StationFigures['series'][number];

  it('sums the five largest terms: 1.363 + 1.25 + 1.2 + 1.2 + 0.536 = 5.55 (the spec’s example)', () => {
    const iza = izaOf([
      {
        id: '1',
        name: 'A',
        series: [
          annual('o3', 36),
          annual('no2', 50),
          annual('pm10', 48),
          annual('pm2.5', 30),
          annual('co', 1500),
          annual('so2', 1),
        ],
      },
    ]);
    expect(iza?.terms.map((t) => [t.substance, roundTo(t.term, 3)])).toEqual([
      ['o3', 1.363],
      ['no2', 1.25],
      ['pm10', 1.2],
      ['pm2.5', 1.2],
      ['co', 0.536],
    ]);
    expect(roundTo(iza?.value ?? 0, 2)).toBe(5.55);
  });

  it('averages the stations’ annual means for the network term', () => {
    const iza = izaOf([
      { id: '1', name: 'A', series: [annual('no2', 30)] },
      { id: '2', name: 'B', series: [annual('no2', 50)] },
    ]);
    expect(iza?.terms[0]).toMatchObject({ mean: 40, term: 1, stations: 2 });
  });

  it('reads the level edges as the table', () => {
    expect([1, 1.1, 4.9, 5, 10, 10.1].map((v) => levelBy('si', v))).toEqual([1, 2, 2, 3, 3, 4]);
    expect([0, 0.1, 19.9, 20, 49.9, 50].map((v) => levelBy('np', v))).toEqual([1, 2, 2, 3, 3, 4]);
    expect([4.99, 5, 6.99, 7, 13.99, 14].map((v) => levelBy('iza', v))).toEqual([1, 2, 2, 3, 3, 4]);
  });

  it('applies the highest level and names the indicator that set it', () => {
    // СИ 2.3 (повышенный) and П 25 % (высокий): высокий, by НП.
    const f = figuresOfRows(
      'no2',
      rows(4, 20 * MIN, (i) => (i === 0 ? 460 : 100)),
      month,
    );
    const n = networkFigures([{ id: '1', name: 'A', series: [f] }], month);
    expect(n.level).toEqual({ level: 3, setBy: ['np'] });
  });

  it('rounds half away from zero, as printed', () => {
    expect(roundTo(2.35, 1)).toBe(2.4);
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(0.96, 1)).toBe(1);
  });
});
