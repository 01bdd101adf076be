// A round of the record in-process, on a fake clock: a store in memory that answers the record's queries as the
// query API does, CityAir's rows as a function, and a sink that keeps what it is given. Each round's writes go
// into the store, as remote write would put them there.
import { describe, expect, it } from 'vitest';
import type { Sink } from '../../src/backfill/sink.js';
import type { ReadingsQuery } from '../../src/readings/read.js';
import type { ParsedRows, RowReading } from '../../src/readings/schema.js';
import type { Quiet } from '../../src/record/gaps.js';
import { type RecordRoundOptions, runRecordRound } from '../../src/record/round.js';
import type { Labels, Store } from '../../src/report/store.js';
import type { Result } from '../../src/upstream/failure.js';
import { fakeClock } from '../support/fake-clock.js';
import { type MemorySeries, memoryStore } from '../support/memory-store.js';
import { plainStation } from '../support/station-list.js';

const M5 = 300_000;
const HOUR = 3_600_000;
const LABELS = [['job', 'cityair'] as const, ['instance', 'a'] as const];

const row = (id: number, atMs: number): RowReading => ({
  reading: {
    id,
    atMs,
    concentrations: new Map([['pm2.5', 1]]),
    temperatureCelsius: undefined,
    humidityRatio: undefined,
    pressurePascals: undefined,
    aqi: new Map(),
  },
  skipped: [],
});

/** A store of timestamp series, one per station, that the sink writes into. */
function world(cityair: ReadonlyMap<number, readonly number[]>) {
  const series = new Map<number, { atMs: number; value: number }[]>();
  const requests: ReadingsQuery[] = [];
  const all = (): MemorySeries[] =>
    [...series].map(([id, samples]) => ({
      labels: {
        __name__: 'cityair_measurement_timestamp_seconds',
        id: String(id),
        job: 'cityair',
        instance: 'a',
      } as Labels,
      samples: [...samples].sort((a, b) => a.atMs - b.atMs),
    }));
  /** Live scrapes: the row at each minute, as Prometheus holds it. */
  const scrape = (id: number, rowMs: number, atMs: number): void => {
    const list = series.get(id) ?? [];
    list.push({ atMs, value: rowMs / 1000 });
    series.set(id, list);
  };
  const store = (): Store => {
    // Rebuilt per query, so each sees what was written before it.
    const view = (): Store => memoryStore(all());
    let queries = 0;
    return {
      series: (...a) => view().series(...a),
      samples: (...a) => {
        queries++;
        return view().samples(...a);
      },
      range: (...a) => {
        queries++;
        return view().range(...a);
      },
      queries: () => queries,
      close: async () => undefined,
    };
  };
  const fetchRows = async (id: number, q: ReadingsQuery): Promise<Result<ParsedRows>> => {
    requests.push(q);
    const lt = q.dateLtMs ?? Number.POSITIVE_INFINITY;
    const times = (cityair.get(id) ?? []).filter((t) => t > q.dateGtMs && t < lt).slice(0, 500);
    return { ok: true, value: { rows: times.map((t) => row(id, t)), rejectedRows: 0 } };
  };
  const sink = (): Sink => ({
    station: () => ({
      write: async (rows) => {
        for (const { reading } of rows) scrape(reading.id, reading.atMs, reading.atMs);
        return rows.length;
      },
    }),
    finish: async () => undefined,
    abort: async () => undefined,
  });
  return { series, scrape, store, fetchRows, sink, requests };
}

function options(
  w: ReturnType<typeof world>,
  ids: readonly number[],
  nowMs: number,
  quiet: ReadonlyMap<number, Quiet>,
  round: number,
): RecordRoundOptions {
  return {
    store: w.store(),
    stations: ids.map((id) => plainStation(id)),
    fetchRows: w.fetchRows,
    openSink: async () => w.sink(),
    labels: LABELS,
    interval: '5m',
    intervalMs: M5,
    lookbackMs: 6 * HOUR,
    maxAgeMs: 30 * 60_000,
    concurrency: 2,
    nowMs,
    quiet,
    round,
    retries: 0,
    maxBackoffMs: 1000,
    gate: { untilMs: 0 },
    now: () => nowMs,
    sleep: async () => undefined,
    random: () => 0.5,
  };
}

const every5m = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let t = Math.ceil(from / M5) * M5; t < to; t += M5) out.push(t);
  return out;
};

describe('a record round', () => {
  it('fills an outage of scrapes exactly once, and the next round asks CityAir nothing', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 27, 12, 0));
    const start = clock.now() - 8 * HOUR;
    const rows = every5m(start, clock.now());
    const w = world(new Map([[1, rows]]));
    // Scraped every minute, except for an outage from 5 h to 3 h ago.
    for (let t = start; t < clock.now(); t += 60_000) {
      if (t > clock.now() - 5 * HOUR && t < clock.now() - 3 * HOUR) continue;
      const newest = rows.filter((r) => r <= t - M5).pop();
      if (newest !== undefined) w.scrape(1, newest, t);
    }
    const first = await runRecordRound(options(w, [1], clock.now(), new Map(), 1));
    expect(first.outcome).toBe('complete');
    const held = (w.series.get(1) ?? []).map((s) => s.value * 1000);
    const window = rows.filter((t) => t >= clock.now() - 6 * HOUR && t < clock.now() - 30 * 60_000);
    for (const t of window) expect(held).toContain(t);
    // Written at their own times, each once: the rows of the outage only.
    const written = (w.series.get(1) ?? []).filter((s) => s.atMs === s.value * 1000).map((s) => s.atMs);
    expect(new Set(written).size).toBe(written.length);
    expect(written.length).toBe(first.rowsWritten);
    expect(first.rowsWritten).toBeGreaterThanOrEqual(23);
    expect(first.rowsWritten).toBeLessThanOrEqual(25);
    expect(first.upstreamRequests).toBeGreaterThan(0);

    await clock.advance(15 * 60_000);
    for (let t = clock.now() - 15 * 60_000; t < clock.now(); t += 60_000)
      w.scrape(1, rows.filter((r) => r <= t - M5).pop() as number, t);
    const asked = w.requests.length;
    const second = await runRecordRound(options(w, [1], clock.now(), first.quiet, 2));
    expect(second).toMatchObject({ outcome: 'complete', gapsFound: 0, rowsWritten: 0, upstreamRequests: 0 });
    expect(w.requests.length).toBe(asked);
  });

  it('remembers a silent station: no CityAir request for it on the next rounds', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 27, 12, 0));
    const w = world(new Map([[7, []]]));
    const first = await runRecordRound(options(w, [7], clock.now(), new Map(), 1));
    expect(first.upstreamRequests).toBeGreaterThan(0);
    expect(first.unfilled.no_rows).toBe(1);
    let quiet = first.quiet;
    for (let round = 2; round < 6; round++) {
      await clock.advance(15 * 60_000);
      const next = await runRecordRound(options(w, [7], clock.now(), quiet, round));
      expect(next).toMatchObject({ upstreamRequests: 0, gapsFound: 1, unfilled: { no_rows: 1 } });
      quiet = next.quiet;
    }
  });

  it('counts a store that cannot be queried as a failed round, and writes nothing', async () => {
    const w = world(new Map([[1, every5m(Date.UTC(2026, 10, 27), Date.UTC(2026, 10, 27, 12))]]));
    const broken: Store = {
      ...w.store(),
      range: async () => {
        throw new Error('HTTP 503 from store');
      },
    };
    const result = await runRecordRound({
      ...options(w, [1], Date.UTC(2026, 10, 27, 12), new Map(), 1),
      store: broken,
    });
    expect(result).toMatchObject({
      outcome: 'failed',
      failures: { query: 'HTTP 503 from store' },
      rowsWritten: 0,
    });
    expect(w.requests).toEqual([]);
  });

  it('counts a refusing receiver as a failed round; the next round writes what is still missing', async () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const rows = every5m(now - 7 * HOUR, now);
    const w = world(new Map([[1, rows]]));
    const refusing = async (): Promise<Sink> => ({
      station: () => ({
        write: async () => {
          throw new Error('remote write: HTTP 400 from store: out of bounds');
        },
      }),
      finish: async () => undefined,
      abort: async () => undefined,
    });
    const refused = await runRecordRound({ ...options(w, [1], now, new Map(), 1), openSink: refusing });
    expect(refused.outcome).toBe('failed');
    expect(refused.failures.write).toMatch(/out of bounds/);
    const retried = await runRecordRound(options(w, [1], now, refused.quiet, 2));
    expect(retried.outcome).toBe('complete');
    expect(retried.rowsWritten).toBe(rows.filter((t) => t >= now - 6 * HOUR && t < now - 30 * 60_000).length);
  });
});

describe('a record round after one whose writes the store does not show yet', () => {
  it('neither asks CityAir for nor writes again what the last rounds wrote', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 27, 12, 0));
    const start = clock.now() - 8 * HOUR;
    const rows = every5m(start, clock.now() + HOUR);
    const w = world(new Map([[1, rows]]));
    const scrapeUntil = (from: number, to: number): void => {
      for (let t = from; t < to; t += 60_000) {
        if (t > clock.now() - 5 * HOUR && t < clock.now() - 3 * HOUR) continue;
        const newest = rows.filter((r) => r <= t - M5).pop();
        if (newest !== undefined) w.scrape(1, newest, t);
      }
    };
    scrapeUntil(start, clock.now());
    // A store that shows nothing written by remote write yet: every write is kept aside.
    const sent: number[] = [];
    const slowSink = async (): Promise<Sink> => ({
      station: () => ({
        write: async (written) => {
          for (const { reading } of written) sent.push(reading.atMs);
          return written.length;
        },
      }),
      finish: async () => undefined,
      abort: async () => undefined,
    });
    const first = await runRecordRound({ ...options(w, [1], clock.now(), new Map(), 1), openSink: slowSink });
    expect(first.rowsWritten).toBeGreaterThan(20);
    const requests = w.requests.length;
    await clock.advance(60_000);
    scrapeUntil(clock.now() - 60_000, clock.now());
    const second = await runRecordRound({
      ...options(w, [1], clock.now(), first.quiet, 2),
      filled: first.filled,
      openSink: slowSink,
    });
    expect(second).toMatchObject({ rowsWritten: 0, upstreamRequests: 0 });
    expect(w.requests.length).toBe(requests);
    expect(new Set(sent).size).toBe(sent.length);
  });

  it('forgets what it wrote after two rounds, so a store that lost the rows has them written again', async () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const w = world(new Map([[1, every5m(now - 7 * HOUR, now)]]));
    const lost = async (): Promise<Sink> => ({
      station: () => ({ write: async (written) => written.length }),
      finish: async () => undefined,
      abort: async () => undefined,
    });
    let previous = await runRecordRound({ ...options(w, [1], now, new Map(), 1), openSink: lost });
    const written = previous.rowsWritten;
    expect(written).toBeGreaterThan(0);
    for (let round = 2; round <= 3; round++) {
      previous = await runRecordRound({
        ...options(w, [1], now, previous.quiet, round),
        filled: previous.filled,
        openSink: lost,
      });
      expect(previous.rowsWritten).toBe(0);
    }
    const fourth = await runRecordRound({
      ...options(w, [1], now, previous.quiet, 4),
      filled: previous.filled,
    });
    expect(fourth.rowsWritten).toBe(written);
  });
});

describe('a record round for a station that reports less often than it is read', () => {
  const MIN20 = 20 * 60_000;
  const sparse = (from: number, to: number): number[] => {
    const out: number[] = [];
    for (let t = Math.ceil(from / MIN20) * MIN20; t < to; t += MIN20) out.push(t);
    return out;
  };
  const scrapeLive = (
    w: ReturnType<typeof world>,
    ids: readonly number[],
    rows: number[],
    from: number,
    to: number,
  ) => {
    for (let t = from; t < to; t += 60_000)
      for (const id of ids) {
        const newest = rows.filter((r) => r <= t - M5).pop();
        if (newest !== undefined) w.scrape(id, newest, t);
      }
  };

  it('asks CityAir nothing, round after round, when nothing is missing', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 27, 12, 0));
    const rows = sparse(clock.now() - 10 * HOUR, clock.now() + 10 * HOUR);
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const w = world(new Map(ids.map((id) => [id, rows])));
    scrapeLive(w, ids, rows, clock.now() - 10 * HOUR, clock.now());
    let previous: Awaited<ReturnType<typeof runRecordRound>> | undefined;
    for (let round = 1; round <= 12; round++) {
      previous = await runRecordRound({
        ...options(w, ids, clock.now(), previous?.quiet ?? new Map(), round),
        filled: previous?.filled ?? new Map(),
      });
      expect(previous).toMatchObject({ upstreamRequests: 0, rowsWritten: 0, gapsFound: 0 });
      scrapeLive(w, ids, rows, clock.now(), clock.now() + 15 * 60_000);
      await clock.advance(15 * 60_000);
    }
    expect(w.requests).toEqual([]);
  });

  it('still fills an outage of its scrapes, with requests for that station only', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 27, 12, 0));
    const rows = sparse(clock.now() - 10 * HOUR, clock.now());
    const w = world(
      new Map([
        [1, rows],
        [2, rows],
      ]),
    );
    scrapeLive(w, [1], rows, clock.now() - 10 * HOUR, clock.now() - 4 * HOUR);
    scrapeLive(w, [1], rows, clock.now() - 2 * HOUR, clock.now());
    scrapeLive(w, [2], rows, clock.now() - 10 * HOUR, clock.now());
    const result = await runRecordRound(options(w, [1, 2], clock.now(), new Map(), 1));
    // Scrapes until 07:59 held the row of 07:40, those from 10:00 the row of 09:40: 08:00 to 09:20 are missing.
    expect(result.rowsWritten).toBe(5);
    expect(result.stationsFilled).toBe(1);
    expect(result.upstreamRequests).toBeGreaterThan(0);
  });
});
