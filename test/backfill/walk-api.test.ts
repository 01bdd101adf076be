// The walk against every way an API may order, cap and filter its answers (test/support/api-behaviour.ts): the
// rows written are the station's rows in [from, to) exactly, value and time, or the walk names exactly the spans
// the API cannot give, and never asks more than the bound docs/backfill.md states.
import { describe, expect, it } from 'vitest';
import { requestCeiling } from '../../src/backfill/coverage.js';
import { type MissingSpan, ROWS_PER_WINDOW, type WalkOptions, walkStation } from '../../src/backfill/walk.js';
import type { ReadingsQuery } from '../../src/readings/read.js';
import type { ParsedRows, RowReading } from '../../src/readings/schema.js';
import type { Result } from '../../src/upstream/failure.js';
import {
  type ApiBehaviour,
  answerTimes,
  type DateRule,
  ORDERS,
  stationTimes,
} from '../support/api-behaviour.js';
import { seededRandom } from '../support/seeded-random.js';

const STEP = 300_000;
const DAY = 86_400_000;
const FROM = Date.UTC(2026, 9, 1);
const TO = FROM + 3 * DAY;

/** A row's value is a function of its time, so a row written with another row's value is seen. */
const valueAt = (t: number): number => (t % 86_400_000) / 1000 + 0.25;

const row = (atMs: number): RowReading => ({
  reading: {
    id: 1,
    atMs,
    concentrations: new Map([['pm2.5', valueAt(atMs)]]),
    temperatureCelsius: undefined,
    humidityRatio: undefined,
    pressurePascals: undefined,
    aqi: new Map(),
  },
  skipped: [],
});

function apiFetch(times: readonly number[], api: ApiBehaviour, log: ReadingsQuery[]): WalkOptions['fetch'] {
  return async (_id, q): Promise<Result<ParsedRows>> => {
    log.push(q);
    // As readingsPath sends them: whole seconds, date__gt down, date__lt up.
    const gt = Math.floor(q.dateGtMs / 1000) * 1000;
    const lt = q.dateLtMs === undefined ? undefined : Math.ceil(q.dateLtMs / 1000) * 1000;
    return { ok: true, value: { rows: answerTimes(times, gt, lt, api).map(row), rejectedRows: 0 } };
  };
}

interface Walked {
  readonly ok: boolean;
  readonly written: [number, number | undefined][];
  readonly missing: readonly MissingSpan[];
  readonly requests: number;
}

async function walk(
  times: readonly number[],
  api: ApiBehaviour,
  range: { fromMs: number; toMs: number; stepMs: number } = { fromMs: FROM, toMs: TO, stepMs: STEP },
): Promise<Walked> {
  const log: ReadingsQuery[] = [];
  const written: RowReading[] = [];
  const outcome = await walkStation(1, {
    fetch: apiFetch(times, api, log),
    interval: range.stepMs === STEP ? '5m' : '1h',
    intervalMs: range.stepMs,
    fromMs: range.fromMs,
    toMs: range.toMs,
    retries: 0,
    maxBackoffMs: 1000,
    gate: { untilMs: 0 },
    now: () => 0,
    sleep: async () => undefined,
    random: () => 1,
    onRequest: () => undefined,
    onRows: async (rows) => {
      written.push(...rows);
    },
  });
  return {
    ok: outcome.ok,
    written: written.map((r) => [r.reading.atMs, r.reading.concentrations.get('pm2.5')]),
    missing: outcome.ok ? [] : outcome.missing,
    requests: log.length,
  };
}

/**
 * The rows an API can ever give: all of them, unless every answer is the same run of rows at one end of the
 * station's history (its oldest when it ignores date__gt and keeps the oldest, its newest when it ignores
 * date__lt and keeps the newest).
 */
function readable(times: readonly number[], api: ApiBehaviour): readonly number[] {
  if (api.cap >= times.length) return times;
  if (api.dateGt === 'ignored' && api.keeps === 'oldest') return times.slice(0, api.cap);
  if (api.dateLt === 'ignored' && api.keeps === 'newest') return times.slice(times.length - api.cap);
  return times;
}

/** What must hold of any walk: exact rows, in order, each once; everything else named missing; bounded. */
function expectSound(
  got: Walked,
  times: readonly number[],
  api: ApiBehaviour,
  range = { fromMs: FROM, toMs: TO, stepMs: STEP },
): void {
  const inRange = times.filter((t) => t >= range.fromMs && t < range.toMs);
  const canGive = new Set(readable(times, api));
  const inMissing = (t: number): boolean => got.missing.some((m) => t >= m.fromMs && t < m.toMs);
  // Every row written is the station's row at that time, in increasing time, never in a span said missing.
  const writtenTimes = got.written.map(([t]) => t);
  expect(got.written).toEqual(writtenTimes.map((t) => [t, valueAt(t)]));
  expect(writtenTimes).toEqual([...writtenTimes].sort((a, b) => a - b));
  expect(new Set(writtenTimes).size).toBe(writtenTimes.length);
  expect(writtenTimes.every((t) => inRange.includes(t) && !inMissing(t))).toBe(true);
  // Every row of the range the API can give is written; every row it cannot give is in a span said missing.
  expect(writtenTimes).toEqual(inRange.filter((t) => canGive.has(t)));
  expect(inRange.filter((t) => !canGive.has(t)).every(inMissing)).toBe(true);
  expect(got.ok).toBe(got.missing.length === 0);
  for (const m of got.missing) {
    expect(m.failure.reason).toBe('not_served');
    expect(m.fromMs).toBeGreaterThanOrEqual(range.fromMs);
    expect(m.toMs).toBeLessThanOrEqual(range.toMs);
  }
  const ceiling = requestCeiling(range.fromMs, range.toMs, range.stepMs, range.stepMs * ROWS_PER_WINDOW);
  expect(got.requests).toBeLessThanOrEqual(ceiling);
}

const RULES: readonly DateRule[] = ['exclusive', 'inclusive', 'ignored'];
const CAPS = [1, 7, 100, 288, 1000, Number.POSITIVE_INFINITY];
const GAPS: Record<string, readonly (readonly [number, number])[]> = {
  'no gap': [],
  'a day offline': [[FROM + DAY + 3 * STEP, FROM + 2 * DAY + 3 * STEP]],
  'offline over --from': [[FROM - 7 * STEP, FROM + 5 * 3600_000]],
};

const cases = Object.entries(ORDERS).flatMap(([order, o]) =>
  RULES.flatMap((dateGt) =>
    RULES.flatMap((dateLt) =>
      CAPS.map((cap): [string, ApiBehaviour] => [
        `${order}, date__gt ${dateGt}, date__lt ${dateLt}, cap ${cap}`,
        { ...o, dateGt, dateLt, cap },
      ]),
    ),
  ),
);

describe('every order, cap and reading of the dates', () => {
  for (const [gapName, gaps] of Object.entries(GAPS)) {
    const times = stationTimes(FROM - DAY, TO + DAY, STEP, gaps);
    it.each(cases)(`${gapName}: %s`, async (_name, api) => {
      const got = await walk(times, api);
      expectSound(got, times, api);
    });
  }
});

describe('what is said missing', () => {
  const times = stationTimes(FROM - DAY, TO + DAY, STEP);
  const inRange = times.filter((t) => t >= FROM && t < TO);

  it('an API that answers its newest rows whatever date__gt asks: all of the range, with why', async () => {
    const api: ApiBehaviour = { ...ORDERS['newest first'], cap: 100, dateGt: 'ignored', dateLt: 'ignored' };
    const got = await walk(times, api);
    expect(got.written).toEqual([]);
    expect(got.missing).toEqual([
      {
        fromMs: FROM,
        toMs: TO,
        failure: {
          reason: 'not_served',
          message: expect.stringMatching(/the API answered the same newest rows .* whatever date__gt/),
        },
      },
    ]);
  });

  it('the newest rows straddling --to: what is before them, to the millisecond', async () => {
    const newestOf = times.length - 400;
    const api: ApiBehaviour = { ...ORDERS['newest first'], cap: 400, dateGt: 'exclusive', dateLt: 'ignored' };
    const got = await walk(times, api);
    const first = times[newestOf] as number;
    expect(got.written.map(([t]) => t)).toEqual(inRange.filter((t) => t >= first));
    expect(got.missing.map((m) => [m.fromMs, m.toMs])).toEqual([[FROM, first]]);
  });

  it('an API that answers its oldest rows whatever date__gt asks: from the first row it cannot give', async () => {
    const api: ApiBehaviour = { ...ORDERS['oldest first'], cap: 400, dateGt: 'ignored', dateLt: 'exclusive' };
    const got = await walk(times, api);
    const last = times[399] as number;
    expect(got.written.map(([t]) => t)).toEqual(inRange.filter((t) => t <= last));
    expect(got.missing.map((m) => [m.fromMs, m.toMs])).toEqual([[last + STEP, TO]]);
    expect(got.missing[0]?.failure.message).toMatch(/at or before the date__gt asked/);
  });

  it('a range of no rows at all is complete, not missing', async () => {
    const got = await walk(stationTimes(FROM - DAY, FROM - STEP, STEP), {
      ...ORDERS['newest first'],
      cap: 50,
      dateGt: 'exclusive',
      dateLt: 'exclusive',
    });
    expect(got).toMatchObject({ ok: true, written: [], missing: [] });
  });
});

describe('random APIs, caps, gaps and ranges (seeded)', () => {
  const SEED = Number(process.env.WALK_SEED ?? 20261127);
  const random = seededRandom(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const trials = Array.from({ length: 150 }, (_, i) => {
    const stepMs = pick([STEP, 3_600_000]);
    const span = stepMs * Math.floor(50 + random() * 900);
    const start = FROM - Math.floor(random() * 100) * stepMs;
    const gaps = Array.from({ length: Math.floor(random() * 4) }, (): [number, number] => {
      const a = start + Math.floor(random() * (span / stepMs)) * stepMs;
      return [a, a + Math.floor(1 + random() * 200) * stepMs];
    });
    const times = stationTimes(start, start + span, stepMs, gaps);
    const fromMs = start + Math.floor(random() * span * 0.5) + Math.floor(random() * 1000);
    const toMs = fromMs + Math.floor(random() * span);
    const o = ORDERS[pick(Object.keys(ORDERS) as (keyof typeof ORDERS)[])];
    const api: ApiBehaviour = {
      ...o,
      cap: pick([1, 2, 3, Math.floor(1 + random() * 3000), Number.POSITIVE_INFINITY]),
      dateGt: pick(RULES),
      dateLt: pick(RULES),
    };
    return { i, times, api, range: { fromMs, toMs, stepMs } };
  });
  it.each(trials)(`seed ${SEED}, trial $i`, async ({ times, api, range }) => {
    const got = await walk(times, api, range);
    expectSound(got, times, api, range);
  });
});
