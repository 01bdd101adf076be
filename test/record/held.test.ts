// What the store holds of each station, asked of a store in memory that answers as the query API does: the rows
// seen step by step, batch by batch, every station told even when nothing is held, and the raw samples of one
// station around a span.
import { describe, expect, it } from 'vitest';
import { eachHeld, heldExactly, STATIONS_PER_QUERY, selectorFor } from '../../src/record/held.js';
import type { Labels, Store } from '../../src/report/store.js';
import { type MemorySeries, memoryStore } from '../support/memory-store.js';

const M5 = 300_000;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 27, 12);
const LABELS = [['job', 'cityair'] as const, ['instance', 'a'] as const];

/** A station's timestamp series: sample at `atMs`, value the row date in seconds. */
const series = (id: number, samples: [number, number][], instance = 'a'): MemorySeries => ({
  labels: {
    __name__: 'cityair_measurement_timestamp_seconds',
    id: String(id),
    job: 'cityair',
    instance,
  } as Labels,
  samples: samples.map(([atMs, rowMs]) => ({ atMs, value: rowMs / 1000 })),
});

/** Rows every 5 minutes over [from, to), each scraped at its own time. */
const rows = (from: number, to: number): [number, number][] => {
  const out: [number, number][] = [];
  for (let t = from; t < to; t += M5) out.push([t, t]);
  return out;
};

function counting(store: Store): { store: Store; ranges: string[] } {
  const ranges: string[] = [];
  return {
    ranges,
    store: {
      ...store,
      range: (expr, ...rest) => {
        ranges.push(expr);
        return store.range(expr, ...rest);
      },
    },
  };
}

async function held(store: Store, ids: number[], fromMs: number, toMs: number) {
  const seen = new Map<number, readonly number[]>();
  await eachHeld(store, ids, LABELS, { fromMs, toMs }, M5, (id, dates) => seen.set(id, dates));
  return seen;
}

describe('selectorFor', () => {
  it('selects the timestamp series of the stations under the record’s labels', () => {
    expect(selectorFor([3], LABELS)).toBe(
      '{__name__=~"cityair_measurement_timestamp_seconds",job="cityair",instance="a",id="3"}',
    );
    expect(selectorFor([3, 14], [])).toBe('{__name__=~"cityair_measurement_timestamp_seconds",id=~"3|14"}');
  });
});

describe('eachHeld', () => {
  it('gives every row date the store holds in the span, once each, in order', async () => {
    const from = NOW - 6 * HOUR;
    const store = memoryStore([series(1, rows(from, NOW))]);
    const seen = await held(store, [1], from, NOW);
    expect(seen.get(1)).toEqual(rows(from, NOW).map(([, t]) => t));
  });

  it('tells a station the store holds nothing of, and a series of another instance does not count', async () => {
    const from = NOW - 6 * HOUR;
    const store = memoryStore([series(1, rows(from, NOW)), series(2, rows(from, NOW), 'b')]);
    const seen = await held(store, [1, 2], from, NOW);
    expect(seen.get(2)).toEqual([]);
    expect(seen.get(1)?.length).toBe(72);
  });

  it('leaves out the rows of an outage, so they look missing', async () => {
    const from = NOW - 6 * HOUR;
    const outage = (t: number) => t >= NOW - 4 * HOUR && t < NOW - 3 * HOUR;
    const store = memoryStore([
      series(
        1,
        rows(from, NOW).filter(([t]) => !outage(t)),
      ),
    ]);
    const dates = (await held(store, [1], from, NOW)).get(1) ?? [];
    expect(dates.some(outage)).toBe(false);
    expect(dates.length).toBe(72 - 12);
  });

  it(`asks one range query per ${STATIONS_PER_QUERY} stations and visits every station`, async () => {
    const from = NOW - HOUR;
    const ids = Array.from({ length: 2 * STATIONS_PER_QUERY + 1 }, (_, i) => i + 1);
    const { store, ranges } = counting(memoryStore(ids.map((id) => series(id, rows(from, NOW)))));
    const seen = await held(store, ids, from, NOW);
    expect(ranges.length).toBe(3);
    expect([...seen.keys()].sort((a, b) => a - b)).toEqual(ids);
    for (const id of ids) expect(seen.get(id)?.length).toBe(12);
    expect(ranges[0]).toBe(
      `last_over_time(${selectorFor(ids.slice(0, STATIONS_PER_QUERY), LABELS)}[${M5}ms])`,
    );
  });

  it('lets a store error through to the round', async () => {
    const broken: Store = {
      ...memoryStore([]),
      range: async () => {
        throw new Error('HTTP 503 from store');
      },
    };
    await expect(held(broken, [1], NOW - HOUR, NOW)).rejects.toThrow('HTTP 503 from store');
  });
});

describe('heldExactly', () => {
  it('gives the row dates of samples taken in (from, to], one station only', async () => {
    // Live scrapes every minute repeat the newest row; the raw samples hold each row date once.
    const scraped: [number, number][] = [];
    for (let t = NOW - HOUR; t <= NOW; t += 60_000) scraped.push([t, Math.floor((t - M5) / M5) * M5]);
    const store = memoryStore([series(1, scraped), series(2, rows(NOW - HOUR, NOW))]);
    const dates = await heldExactly(store, 1, LABELS, NOW - 30 * 60_000, NOW);
    const expected = [...new Set(scraped.filter(([at]) => at > NOW - 30 * 60_000).map(([, r]) => r))];
    expect(dates).toEqual(expected);
    expect(dates).toEqual([35, 30, 25, 20, 15, 10, 5].map((m) => NOW - m * 60_000));
    expect(await heldExactly(store, 3, LABELS, NOW - HOUR, NOW)).toEqual([]);
    // Rows written at their own times: each sample one row; a sample at `from` itself is outside.
    expect(await heldExactly(store, 2, [], NOW - 30 * 60_000, NOW)).toEqual(
      [25, 20, 15, 10, 5].map((m) => NOW - m * 60_000),
    );
  });
});
