import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { STATIONS_PATH } from '../../src/config/config.js';
import {
  demoHistoryHasBadRow,
  demoHistoryInOtherUnits,
  demoReadings,
  isHistoryQuery,
  startDemoHistory,
  withHistoryQuirks,
} from '../../src/demo/history.js';
import { demoReadingsAnswer } from '../../src/demo/readings.js';
import { parseReadingRows } from '../../src/readings/schema.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const HOUR = 3_600_000;
const history = { interval: '1h' as const, dateGtMs: NOW - 3 * 24 * HOUR };
const recent = { interval: '5m' as const, dateGtMs: NOW - HOUR };

describe('isHistoryQuery', () => {
  it('is a request for rows from more than six hours ago', () => {
    expect(isHistoryQuery(history, NOW)).toBe(true);
    expect(isHistoryQuery(recent, NOW)).toBe(false);
    expect(isHistoryQuery({ interval: '5m', dateGtMs: undefined }, NOW)).toBe(false);
  });
});

describe('demoReadings', () => {
  it('answers a round as the live demo does, and history with its quirks', () => {
    const id = 1002;
    expect(demoHistoryInOtherUnits(id)).toBe(true);
    expect(demoReadings(id, NOW, recent)).toEqual(demoReadingsAnswer(id, NOW, recent));
    const quirky = demoReadings(id, NOW, history);
    expect(quirky.meta.units.pressure).toBe('hPa');
    expect(quirky.meta.units.pm2).toBe('µg/m³');
  });
});

describe('withHistoryQuirks', () => {
  it('sends the same air in other units: the exporter reads the same values either way', () => {
    const id = 1002;
    const plain = demoReadingsAnswer(id, NOW, history);
    const a = parseReadingRows(id, plain, NOW);
    const b = parseReadingRows(id, withHistoryQuirks(id, plain), NOW);
    if (!a.ok || !b.ok) throw new Error('expected rows');
    const pm = (r: typeof a) => (r.ok ? r.value.rows.map((x) => x.reading.concentrations.get('pm2.5')) : []);
    const pressure = (r: typeof a) => (r.ok ? r.value.rows.map((x) => x.reading.pressurePascals) : []);
    expect(pm(b).length).toBeGreaterThan(0);
    pm(b).forEach((v, i) => {
      expect(v).toBeCloseTo(pm(a)[i] ?? Number.NaN, 3);
    });
    pressure(b).forEach((v, i) => {
      expect(v).toBeCloseTo(pressure(a)[i] ?? Number.NaN, 0);
    });
  });

  it('dates one row a day without an offset, which the exporter rejects', () => {
    const id = 1004;
    expect(demoHistoryHasBadRow(id)).toBe(true);
    const rows = parseReadingRows(id, withHistoryQuirks(id, demoReadingsAnswer(id, NOW, history)), NOW);
    expect(rows.ok && rows.value.rejectedRows).toBeGreaterThan(0);
  });

  it('leaves a station without quirks alone', () => {
    const answer = demoReadingsAnswer(1000, NOW, history);
    expect(withHistoryQuirks(1000, answer)).toBe(answer);
  });
});

describe('startDemoHistory', () => {
  it('fails a history request twice for 1051 and asks to wait once for 1085, then answers', async () => {
    const demo = await startDemoHistory('k');
    try {
      const since = new Date(Date.now() - 2 * 24 * HOUR).toISOString().slice(0, 19);
      const status = async (id: number) => {
        const res = await request(`${demo.baseUrl}${STATIONS_PATH}/${id}/measurements?date__gt=${since}Z`, {
          headers: { authorization: 'Bearer k' },
        });
        await res.body.dump();
        return [res.statusCode, res.headers['retry-after']];
      };
      expect([await status(1051), await status(1051), await status(1051)]).toEqual([
        [503, undefined],
        [503, undefined],
        [200, undefined],
      ]);
      expect([await status(1085), await status(1085)]).toEqual([
        [429, '1'],
        [200, undefined],
      ]);
    } finally {
      await demo.close();
    }
  });
});
