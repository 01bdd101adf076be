// The walk of one station's history against a fake API, in-process: paging by the newest row, gaps, answers
// that repeat or ignore date__lt, retries and Retry-After, with a fake clock.
import { describe, expect, it } from 'vitest';
import { newRows } from '../../src/backfill/new-rows.js';
import { type WalkOptions, walkStation } from '../../src/backfill/walk.js';
import type { ReadingsQuery } from '../../src/readings/read.js';
import type { ParsedRows, RowReading } from '../../src/readings/schema.js';
import { failure, type Result } from '../../src/upstream/failure.js';

const STEP = 300_000;
const FROM = Date.UTC(2026, 9, 1);
const TO = FROM + 3 * 86_400_000;

const row = (atMs: number, pm = atMs / STEP): RowReading => ({
  reading: {
    id: 1,
    atMs,
    concentrations: new Map([['pm2.5', pm]]),
    temperatureCelsius: undefined,
    humidityRatio: undefined,
    pressurePascals: undefined,
    aqi: new Map(),
  },
  skipped: [],
});

interface FakeApi {
  /** Row times the station has. */
  readonly times: readonly number[];
  readonly cap: number;
  readonly honoursDateLt: boolean;
  /** Also send the row at the cursor (some APIs repeat it). */
  readonly repeatsCursor?: boolean;
  /** How far past date__lt (as sent: whole seconds) rows still come: 1 reads it as "at or before". */
  readonly dateLtSlackMs?: number;
}

function fakeFetch(api: FakeApi, log: ReadingsQuery[]) {
  return async (_id: number, q: ReadingsQuery): Promise<Result<ParsedRows>> => {
    log.push(q);
    const gt = Math.floor(q.dateGtMs / 1000) * 1000;
    const lt = q.dateLtMs === undefined ? Number.POSITIVE_INFINITY : Math.ceil(q.dateLtMs / 1000) * 1000;
    const beforeLt = (t: number): boolean => t < lt + (api.dateLtSlackMs ?? 0);
    const picked = api.times.filter(
      (t) => (api.repeatsCursor ? t >= gt : t > gt) && (!api.honoursDateLt || beforeLt(t)),
    );
    return { ok: true, value: { rows: picked.slice(0, api.cap).map((t) => row(t)), rejectedRows: 0 } };
  };
}

function options(
  fetch: WalkOptions['fetch'],
  written: RowReading[],
  over: Partial<WalkOptions> = {},
): WalkOptions {
  let now = 0;
  return {
    fetch,
    interval: '5m',
    intervalMs: STEP,
    fromMs: FROM,
    toMs: TO,
    retries: 3,
    maxBackoffMs: 60_000,
    gate: { untilMs: 0 },
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    random: () => 1,
    onRequest: () => undefined,
    onRows: async (rows) => {
      written.push(...rows);
    },
    ...over,
  };
}

const every5m = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let t = from; t < to; t += STEP) out.push(t);
  return out;
};

describe('walking a station forward', () => {
  it('pages from the newest row when answers are capped, and writes each row once, in time order', async () => {
    const times = every5m(FROM - 3600_000, TO + 3600_000);
    const log: ReadingsQuery[] = [];
    const written: RowReading[] = [];
    const outcome = await walkStation(
      1,
      options(fakeFetch({ times, cap: 100, honoursDateLt: false }, log), written),
    );
    const expected = times.filter((t) => t >= FROM && t < TO);
    expect(outcome).toEqual({ ok: true, rows: expected.length });
    expect(written.map((r) => r.reading.atMs)).toEqual(expected);
    // 864 rows at 100 per answer, and no request after the end.
    expect(log.length).toBe(Math.ceil(expected.length / 100));
  });

  it('never writes a row twice when the API repeats the row at the cursor', async () => {
    const times = every5m(FROM, TO);
    const written: RowReading[] = [];
    await walkStation(
      1,
      options(fakeFetch({ times, cap: 50, honoursDateLt: true, repeatsCursor: true }, []), written),
    );
    const at = written.map((r) => r.reading.atMs);
    expect(at).toEqual(times);
  });

  it('goes on after a day without rows when the API honours date__lt', async () => {
    const times = every5m(FROM, TO).filter((t) => t < FROM + 86_400_000 || t >= FROM + 2 * 86_400_000);
    const written: RowReading[] = [];
    await walkStation(1, options(fakeFetch({ times, cap: 1000, honoursDateLt: true }, []), written));
    expect(written.map((r) => r.reading.atMs)).toEqual(times);
  });

  it.each([
    ['as inclusive', 1],
    ['rounded up to its next row, inclusive', STEP + 1],
  ])('goes on after a day without rows when the API takes date__lt %s', async (_how, dateLtSlackMs) => {
    // The first window ends on a row's time: the API sends that row (and the next) too, which is not a sign that
    // it ignores date__lt, so the empty second day is stepped over.
    const times = every5m(FROM, TO).filter(
      (t) => t <= FROM + 86_400_000 + STEP || t > FROM + 2 * 86_400_000 + 2 * STEP,
    );
    const written: RowReading[] = [];
    await walkStation(
      1,
      options(fakeFetch({ times, cap: 1000, honoursDateLt: true, dateLtSlackMs }, []), written),
    );
    expect(written.map((r) => r.reading.atMs)).toEqual(times);
  });

  it('an API that ignores date__lt: every row, and past the last one the walk asks on to --to', async () => {
    const times = every5m(FROM, FROM + 86_400_000 + 3 * STEP);
    const log: ReadingsQuery[] = [];
    const written: RowReading[] = [];
    const outcome = await walkStation(
      1,
      options(fakeFetch({ times, cap: 1000, honoursDateLt: false }, log), written),
    );
    expect(outcome.ok).toBe(true);
    expect(written.map((r) => r.reading.atMs)).toEqual(times);
    // A row past the date__lt sent proves nothing of what lies after it: the span after the last row is asked,
    // from that row again, and proven by an answer with nothing newer.
    const last = times[times.length - 1] as number;
    expect(log.some((q) => q.dateGtMs === last - 1)).toBe(true);
  });

  it('asks windows of a day of 5-minute rows, starting an interval before --from, where a row joins the runs', async () => {
    const log: ReadingsQuery[] = [];
    await walkStation(1, options(fakeFetch({ times: [], cap: 1000, honoursDateLt: true }, log), []));
    expect(log[0]).toEqual({ interval: '5m', dateGtMs: FROM - STEP - 1, dateLtMs: FROM + 288 * STEP });
    // An empty answer proves only the first half of its window (date__lt may have been rounded down), so each
    // next window is twice as long, up to four: a station with no rows costs a few requests, not two a day.
    expect(log.map((q) => (q.dateGtMs - (log[0]?.dateGtMs ?? 0)) / STEP)).toEqual([0, 143.5, 431]);
    const tenDays: ReadingsQuery[] = [];
    const silent = fakeFetch({ times: [], cap: 1000, honoursDateLt: true }, tenDays);
    await walkStation(1, options(silent, [], { toMs: FROM + 10 * 86_400_000 }));
    const lengths = tenDays.map((q) => ((q.dateLtMs ?? 0) - q.dateGtMs - 1) / STEP);
    expect(lengths.slice(0, 4)).toEqual([289, 577, 1153, 1153]);
    expect(tenDays).toHaveLength(7);
  });
});

describe('newRows', () => {
  it('sorts, drops rows at or before the cursor and at or after --to, and keeps the later of two equal times', () => {
    const a = row(2 * STEP, 1);
    const b = row(2 * STEP, 2);
    const kept = newRows([row(3 * STEP), a, row(STEP), b, row(9 * STEP)], STEP, 9 * STEP);
    expect(kept.map((r) => [r.reading.atMs, r.reading.concentrations.get('pm2.5')])).toEqual([
      [2 * STEP, 2],
      [3 * STEP, 3],
    ]);
  });
});

describe('failures', () => {
  const always = (f: ReturnType<typeof failure>) => async (): Promise<Result<ParsedRows>> => f;

  it('retries a 5xx with backoff, then reports the station failed with the range it misses', async () => {
    let calls = 0;
    const slept: number[] = [];
    const written: RowReading[] = [];
    const base = options(async (id, q) => {
      calls++;
      return calls <= 2
        ? fakeFetch({ times: every5m(FROM, TO), cap: 100, honoursDateLt: true }, [])(id, q)
        : failure('http_5xx', 'HTTP 502: bad gateway');
    }, written);
    const outcome = await walkStation(1, {
      ...base,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.missing).toHaveLength(1);
    expect(outcome.missing[0]?.failure.reason).toBe('http_5xx');
    // The second answer starts at the last row of the first, asked again: 199 rows, the last at FROM + 198 steps.
    expect(outcome.rows).toBe(199);
    // Nothing says where the next row is: what is missing starts the millisecond after it, and runs to --to.
    expect(outcome.missing[0]).toMatchObject({ fromMs: FROM + 198 * STEP + 1, toMs: TO });
    expect(calls).toBe(2 + 1 + 3);
    expect(slept).toEqual([1000, 2000, 4000]);
  });

  it('does not retry an auth failure', async () => {
    let calls = 0;
    const outcome = await walkStation(
      1,
      options(async () => {
        calls++;
        return failure('auth', 'HTTP 401');
      }, []),
    );
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({ ok: false, missing: [{ fromMs: FROM, toMs: TO }], rows: 0 });
  });

  it('pauses every request until the Retry-After of a 429 has passed', async () => {
    const gate = { untilMs: 0 };
    let now = 0;
    const seen: number[] = [];
    let first = true;
    const fetch = async (): Promise<Result<ParsedRows>> => {
      seen.push(now);
      if (first) {
        first = false;
        return failure('rate_limited', 'HTTP 429', 7000);
      }
      return always(failure('http_4xx', 'HTTP 404'))();
    };
    await walkStation(1, {
      ...options(fetch, []),
      gate,
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    });
    expect(seen).toEqual([0, 7000]);
    expect(gate.untilMs).toBe(7000);
  });
});
