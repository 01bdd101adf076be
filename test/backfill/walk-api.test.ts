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
  withExtraRows,
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

function apiFetch(
  times: readonly number[],
  api: ApiBehaviour,
  log: ReadingsQuery[],
  seen: Set<number>,
): WalkOptions['fetch'] {
  return async (_id, q): Promise<Result<ParsedRows>> => {
    log.push(q);
    // As readingsPath sends them: whole seconds, date__gt down, date__lt up.
    const gt = Math.floor(q.dateGtMs / 1000) * 1000;
    const lt = q.dateLtMs === undefined ? undefined : Math.ceil(q.dateLtMs / 1000) * 1000;
    const answer = answerTimes(times, gt, lt, api, log.length);
    for (const t of answer) seen.add(t);
    return { ok: true, value: { rows: answer.map(row), rejectedRows: 0 } };
  };
}

interface Walked {
  readonly ok: boolean;
  readonly written: [number, number | undefined][];
  readonly missing: readonly MissingSpan[];
  readonly requests: number;
  /** Rows the API ever gave (distinct times): the request bound grows with them. */
  readonly read: number;
  readonly seen: ReadonlySet<number>;
}

async function walk(
  times: readonly number[],
  api: ApiBehaviour,
  range: { fromMs: number; toMs: number; stepMs: number } = { fromMs: FROM, toMs: TO, stepMs: STEP },
  wrap: (fetch: WalkOptions['fetch']) => WalkOptions['fetch'] = (f) => f,
): Promise<Walked> {
  const log: ReadingsQuery[] = [];
  const seen = new Set<number>();
  const written: RowReading[] = [];
  const outcome = await walkStation(1, {
    fetch: wrap(apiFetch(times, api, log, seen)),
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
    read: seen.size,
    seen,
  };
}

/**
 * An API the walk must read whole, exit 0: it honours date__gt (or widens it) and date__lt (or widens it), its cap
 * is at least 2 rows (more than an hour of rows when it rounds a date to the hour: a smaller cap can leave rows no
 * request reaches) and it answers what is asked. Any other may end in spans named missing, never in a row lost
 * unsaid.
 */
function mustReadWhole(api: ApiBehaviour, stepMs: number, gapped: boolean): boolean {
  // date__gt read earlier: an answer of rows before the window only, ending at the row asked again, may have been
  // cut there, so a gap in the rows is never proven empty by it (named missing instead).
  const gtOk = ['exclusive', 'inclusive', ...(gapped ? [] : ['hour down'])].includes(api.dateGt);
  const ltOk = ['exclusive', 'inclusive', 'hour up'].includes(api.dateLt);
  const rounds = api.dateGt === 'hour down' || api.dateLt === 'hour up';
  const least = rounds ? Math.max(2, 3_600_000 / stepMs + 1) : 2;
  // A cap of one row: read whole when it keeps the oldest rows after a date__gt honoured as sent (single-rows.ts).
  const single = api.capSchedule === undefined && api.keeps === 'oldest' && api.dateGt === 'exclusive';
  const cap = api.capSchedule === undefined ? api.cap : Math.min(...api.capSchedule);
  const capOk = cap >= least || (single && cap === 1);
  // A cap that varies may, at random, cut an answer to one row, which joins no runs.
  const plain = api.repeatAfter === undefined && api.late === undefined && api.outside === undefined;
  return gtOk && (ltOk || (single && cap === 1)) && capOk && plain;
}

/**
 * What must hold of any walk: every row written is the station's, in order, each once; every row of the range
 * not written lies in a span said missing; an API that answers what is asked is read whole; bounded.
 */
function expectSound(
  got: Walked,
  times: readonly number[],
  api: ApiBehaviour,
  range = { fromMs: FROM, toMs: TO, stepMs: STEP },
): void {
  if (process.env.WALK_DEBUG)
    console.log(JSON.stringify({ api, range, n: got.requests, missing: got.missing }));
  // A row that comes late counts once the API gave it: one that arrives after the walk has passed, and that no
  // later answer holds, no walk can know of.
  const late = api.late;
  const given = (t: number): boolean =>
    late === undefined || t < late.fromMs || t >= late.toMs || got.seen.has(t);
  const inRange = [...new Set(times.filter((t) => t >= range.fromMs && t < range.toMs && given(t)))];
  const inMissing = (t: number): boolean => got.missing.some((m) => t >= m.fromMs && t < m.toMs);
  const writtenTimes = got.written.map(([t]) => t);
  expect(got.written).toEqual(writtenTimes.map((t) => [t, valueAt(t)]));
  expect(writtenTimes).toEqual([...writtenTimes].sort((a, b) => a - b));
  expect(new Set(writtenTimes).size).toBe(writtenTimes.length);
  expect(writtenTimes.every((t) => inRange.includes(t) && !inMissing(t))).toBe(true);
  const written = new Set(writtenTimes);
  expect(inRange.filter((t) => !written.has(t) && !inMissing(t))).toEqual([]);
  expect(got.ok).toBe(got.missing.length === 0);
  // An API that reads date__gt earlier and has no row in the range answers only rows before it: whole or cut?
  const seen = inRange.length > 0 || api.dateGt !== 'hour down';
  // The rows' own spacing, not the interval asked: rows closer together make an hour hold more of them.
  let spacing = range.stepMs;
  for (let i = 1; i < times.length; i++)
    spacing = Math.min(spacing, (times[i] as number) - (times[i - 1] as number) || spacing);
  // A gap among the rows of the range, or at its ends (a station whose rows stop before --to).
  const near = [range.fromMs, ...times.filter((t) => t >= range.fromMs && t < range.toMs), range.toMs];
  const gapped = near.some((t, i) => i > 0 && t - (near[i - 1] as number) > spacing);
  if (seen && mustReadWhole(api, spacing, gapped)) expect(got.missing).toEqual([]);
  for (const m of got.missing) {
    expect(m.failure.reason).toBe('not_served');
    expect(m.fromMs).toBeGreaterThanOrEqual(range.fromMs);
    expect(m.toMs).toBeLessThanOrEqual(range.toMs);
  }
  const ceiling = requestCeiling(range.fromMs, range.toMs, range.stepMs * ROWS_PER_WINDOW, got.read);
  expect(got.requests).toBeLessThanOrEqual(ceiling);
}

const RULES: readonly DateRule[] = ['exclusive', 'inclusive', 'ignored'];
const GT_RULES: readonly DateRule[] = [...RULES, 'hour down'];
const LT_RULES: readonly DateRule[] = [...RULES, 'hour up', 'hour down'];
const CAPS = [1, 7, 100, 288, 1000, Number.POSITIVE_INFINITY];
/** Caps that vary from answer to answer: at random between 50 and 150, and shrinking from 300 by 10 to 20. */
const SCHEDULES: Record<string, readonly number[]> = {
  'cap 50 to 150 at random': Array.from({ length: 97 }, (_, i) => 50 + ((i * 7919) % 101)),
  'cap shrinking from 300 to 20': Array.from({ length: 29 }, (_, i) => 300 - i * 10).concat(
    Array(200).fill(20),
  ),
};
const GAPS: Record<string, readonly (readonly [number, number])[]> = {
  'no gap': [],
  'a day offline': [[FROM + DAY + 3 * STEP, FROM + 2 * DAY + 3 * STEP]],
  'offline over --from': [[FROM - 7 * STEP, FROM + 5 * 3600_000]],
  'offline all the range': [[FROM - 7 * STEP, TO + 7 * STEP]],
};

const cases: [string, ApiBehaviour][] = Object.entries(ORDERS).flatMap(([order, o]) =>
  GT_RULES.flatMap((dateGt) =>
    LT_RULES.flatMap((dateLt) => [
      ...CAPS.map((cap): [string, ApiBehaviour] => [
        `${order}, date__gt ${dateGt}, date__lt ${dateLt}, cap ${cap}`,
        { ...o, dateGt, dateLt, cap },
      ]),
      ...Object.entries(SCHEDULES).map(([name, capSchedule]): [string, ApiBehaviour] => [
        `${order}, date__gt ${dateGt}, date__lt ${dateLt}, ${name}`,
        { ...o, dateGt, dateLt, cap: Number.POSITIVE_INFINITY, capSchedule },
      ]),
      [
        `${order}, date__gt ${dateGt}, date__lt ${dateLt}, cap 100, the 3rd answer repeated whatever is asked`,
        { ...o, dateGt, dateLt, cap: 100, repeatAfter: 3 },
      ] as [string, ApiBehaviour],
    ]),
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
    // From the millisecond after the last row read: nothing says where the next row is.
    expect(got.missing.map((m) => [m.fromMs, m.toMs])).toEqual([[last + 1, TO]]);
    expect(got.missing[0]?.failure.message).toMatch(/at or before the date__gt asked/);
  });

  it('a row later seen inside a span an answer showed empty: that span is named missing, never passed over', async () => {
    // The first answer is empty though the rows are there (a host that narrowed the dates once); later answers
    // ignore date__gt and bring them, too late to be written in order.
    const api: ApiBehaviour = {
      ...ORDERS['oldest first'],
      cap: Number.POSITIVE_INFINITY,
      dateGt: 'ignored',
      dateLt: 'exclusive',
    };
    let n = 0;
    const got = await walk(
      times,
      api,
      undefined,
      (honest) => async (id, q) =>
        ++n === 1 ? { ok: true, value: { rows: [], rejectedRows: 0 } } : honest(id, q),
    );
    expect(got.ok).toBe(false);
    const outcome = got;
    const first = outcome.missing[0];
    expect(first?.fromMs).toBe(FROM);
    expect(first?.failure.message).toMatch(/inside a span an earlier answer showed empty: it narrows/);
    // Every row not written is inside a span named missing.
    const done = new Set(got.written.map(([t]) => t));
    const unnamed = inRange.filter(
      (t) => !done.has(t) && !got.missing.some((m) => t >= m.fromMs && t < m.toMs),
    );
    expect(unnamed).toEqual([]);
  });

  it('date__lt rounded down under a cap that keeps the newest rows: each span it hides named, and why', async () => {
    const api: ApiBehaviour = {
      ...ORDERS['newest first'],
      cap: 100,
      dateGt: 'exclusive',
      dateLt: 'hour down',
    };
    const got = await walk(times, api);
    expectSound(got, times, api);
    expect(got.missing.length).toBeGreaterThan(0);
    for (const m of got.missing)
      expect(m.failure.message).toMatch(
        /did not give back the row at .* when asked up to just after it: it narrows date__lt/,
      );
  });

  it.each([
    ['oldest first, no cap', { ...ORDERS['oldest first'], cap: Number.POSITIVE_INFINITY }],
    ['oldest first, cap 400', { ...ORDERS['oldest first'], cap: 400 }],
  ] as const)(
    'rows that come late into a span already read, %s: each named missing, to the millisecond',
    async (_n, o) => {
      // The host reads date__gt as its day, so the second answer brings again the first day, with the rows of
      // 02:00 to 04:00 that the first answer left out, behind the cursor.
      const late = { fromMs: FROM + 2 * 3_600_000, toMs: FROM + 4 * 3_600_000, afterRequest: 1 };
      const api: ApiBehaviour = { ...o, dateGt: 'day down', dateLt: 'exclusive', late };
      const range = { fromMs: FROM, toMs: TO, stepMs: STEP };
      const got = await walk(times, api, range);
      expectSound(got, times, api, range);
      expect(got.ok).toBe(false);
      const lateTimes = times.filter((t) => t >= late.fromMs && t < late.toMs);
      const written = new Set(got.written.map(([t]) => t));
      const notWritten = lateTimes.filter((t) => !written.has(t));
      expect(notWritten.length).toBeGreaterThan(0);
      for (const m of got.missing)
        expect(m.failure.message).toMatch(/after the span holding it had been read: it arrived late/);
      // Exactly the rows not written: from the first to just after the last, no row written between.
      expect(got.missing.map((m) => [m.fromMs, m.toMs])).toEqual([
        [notWritten[0], (notWritten[notWritten.length - 1] as number) + 1],
      ]);
    },
  );

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

describe('rows closer together than the interval', () => {
  const APIS: Record<string, ApiBehaviour> = {
    'both dates honoured': {
      ...ORDERS['oldest first'],
      cap: Number.POSITIVE_INFINITY,
      dateGt: 'exclusive',
      dateLt: 'exclusive',
    },
    'oldest first, cap 100': {
      ...ORDERS['oldest first'],
      cap: 100,
      dateGt: 'exclusive',
      dateLt: 'exclusive',
    },
    'newest first, cap 100': {
      ...ORDERS['newest first'],
      cap: 100,
      dateGt: 'exclusive',
      dateLt: 'exclusive',
    },
    'newest, date__gt inclusive, cap 7': {
      ...ORDERS['newest, mixed'],
      cap: 7,
      dateGt: 'inclusive',
      dateLt: 'inclusive',
    },
    'oldest first, cap 50 to 150': {
      ...ORDERS['oldest first'],
      cap: Number.POSITIVE_INFINITY,
      capSchedule: SCHEDULES['cap 50 to 150 at random'] as readonly number[],
      dateGt: 'exclusive',
      dateLt: 'exclusive',
    },
  };
  for (const [gapName, gaps] of Object.entries(GAPS)) {
    const base = stationTimes(FROM - DAY, TO + DAY, STEP, gaps);
    it.each(Object.entries(APIS))(
      `${gapName}, a row 1 minute after every 10th: %s, every row`,
      async (_n, api) => {
        const times = withExtraRows(base, 10, 60_000);
        const got = await walk(times, api);
        expectSound(got, times, api);
        expect(got.written.map(([t]) => t)).toEqual(times.filter((t) => t >= FROM && t < TO));
      },
    );
    it.each(Object.entries(APIS))(`${gapName}, 5-minute rows read at 1h: %s, every row`, async (_n, api) => {
      const range = { fromMs: FROM, toMs: TO, stepMs: 3_600_000 };
      const got = await walk(base, api, range);
      expectSound(got, base, api, range);
      expect(got.written.map(([t]) => t)).toEqual(base.filter((t) => t >= FROM && t < TO));
    });
  }
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
    const grid = stationTimes(start, start + span, stepMs, gaps);
    // Now and then rows closer than the interval, or 5-minute rows read at 1h.
    const extra = random() < 0.2;
    const times = extra
      ? withExtraRows(grid, 2 + Math.floor(random() * 20), 1000 * Math.floor(1 + random() * 200))
      : grid;
    const readAt = stepMs === 3_600_000 && random() < 0.2 ? 'fine' : 'same';
    const fromMs = start + Math.floor(random() * span * 0.5) + Math.floor(random() * 1000);
    const toMs = fromMs + Math.floor(random() * span);
    const o = ORDERS[pick(Object.keys(ORDERS) as (keyof typeof ORDERS)[])];
    const api: ApiBehaviour = {
      ...o,
      cap: pick([1, 2, 3, Math.floor(1 + random() * 3000), Number.POSITIVE_INFINITY]),
      dateGt: pick([...GT_RULES, 'day down']),
      dateLt: pick(LT_RULES),
      ...(random() < 0.2 ? { capSchedule: pick(Object.values(SCHEDULES)) } : {}),
      ...(random() < 0.1 ? { repeatAfter: 1 + Math.floor(random() * 5) } : {}),
      ...(random() < 0.15 ? { outside: 1 + Math.floor(random() * 40) } : {}),
      ...(random() < 0.15
        ? {
            late: {
              fromMs: fromMs + Math.floor(random() * span * 0.5),
              toMs: fromMs + Math.floor(random() * span * 0.5) + Math.floor(random() * 200) * stepMs,
              afterRequest: 1 + Math.floor(random() * 4),
            },
          }
        : {}),
    };
    const fine = readAt === 'fine' ? stationTimes(start, start + span, STEP, gaps) : times;
    return { i, times: fine, api, range: { fromMs, toMs, stepMs } };
  });
  it.each(trials)(`seed ${SEED}, trial $i`, async ({ times, api, range }) => {
    const got = await walk(times, api, range);
    expectSound(got, times, api, range);
  });
});

describe('answers that hold rows before date__gt, cut by a cap that varies', () => {
  // Such an answer may end exactly at the row asked again, cut there: it must not prove the window after it.
  const times = stationTimes(FROM - 3 * DAY, TO + 3 * DAY, STEP, [
    [FROM + DAY + 6 * STEP, FROM + DAY + 9 * STEP],
  ]);
  const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
  const capsFrom = (seed: number, least: number, most: number): number[] => {
    const random = seededRandom(seed);
    return Array.from({ length: 500 }, () => least + Math.floor(random() * (most - least + 1)));
  };
  it.each(seeds)('date__gt read as its day, keeps the oldest 270 to 300 rows, seed %i', async (seed) => {
    const api: ApiBehaviour = {
      ...ORDERS['oldest first'],
      cap: Number.POSITIVE_INFINITY,
      capSchedule: capsFrom(seed, 270, 300),
      dateGt: 'day down',
      dateLt: 'exclusive',
    };
    expectSound(await walk(times, api), times, api);
  });
  it.each(seeds)('20 rows before date__gt added, keeps the oldest 15 to 40 rows, seed %i', async (seed) => {
    const api: ApiBehaviour = {
      ...ORDERS['oldest first'],
      cap: Number.POSITIVE_INFINITY,
      capSchedule: capsFrom(seed, 15, 40),
      dateGt: 'exclusive',
      dateLt: 'exclusive',
      outside: 20,
    };
    expectSound(await walk(times, api), times, api);
  });
});

describe('the window, clipped to --to', () => {
  it('a range of one interval against newest-first answers of 2 rows: a few requests, not a day of them', async () => {
    const times = stationTimes(FROM - DAY, TO + DAY, STEP);
    const api: ApiBehaviour = { ...ORDERS['newest first'], cap: 2, dateGt: 'exclusive', dateLt: 'exclusive' };
    const range = { fromMs: FROM, toMs: FROM + STEP, stepMs: STEP };
    const got = await walk(times, api, range);
    expectSound(got, times, api, range);
    expect(got.written.map(([t]) => t)).toEqual([FROM]);
    // The window still spans two hours (24 rows, one new per answer), against 287 requests unclipped.
    expect(got.requests).toBeLessThanOrEqual(24);
  });
});

describe('one row per answer (a cap of 1)', () => {
  const gaps = Object.values(GAPS);
  it.each(gaps.map((g, i) => [i, g] as const))(
    'oldest first, both dates honoured, gaps %i: every row, in at most two requests a row',
    async (_i, g) => {
      const times = stationTimes(FROM - DAY, TO + DAY, STEP, g);
      const api: ApiBehaviour = {
        ...ORDERS['oldest first'],
        cap: 1,
        dateGt: 'exclusive',
        dateLt: 'exclusive',
      };
      const got = await walk(times, api);
      expectSound(got, times, api);
      expect(got.missing).toEqual([]);
      if (process.env.WALK_DEBUG) console.log(got.requests, got.written.length);
      expect(got.requests).toBeLessThanOrEqual(2 * got.written.length + 16);
    },
  );
  const odd: Record<string, Partial<ApiBehaviour>> = {
    ...Object.fromEntries(
      [1, 2, 3, 4, 5, 8].map((n) => [`the answer of request ${n} repeated`, { repeatAfter: n }]),
    ),
    '5 rows before date__gt added': { outside: 5 },
    'rows of 02:00 to 04:00 arriving after 3 requests': {
      late: { fromMs: FROM + 2 * 3_600_000, toMs: FROM + 4 * 3_600_000, afterRequest: 3 },
    },
  };
  for (const [gapName, g] of Object.entries(GAPS)) {
    const times = stationTimes(FROM - DAY, TO + DAY, STEP, g);
    it.each(Object.entries(odd))(`${gapName}, %s: nothing lost unsaid`, async (_n, more) => {
      for (const order of Object.values(ORDERS)) {
        const api: ApiBehaviour = { ...order, cap: 1, dateGt: 'exclusive', dateLt: 'exclusive', ...more };
        expectSound(await walk(times, api), times, api);
      }
    });
  }
});

describe('caps that fall, rows listed twice, rows past --to (third attack)', () => {
  const times = stationTimes(FROM - DAY, TO + DAY, STEP);
  const inRange = times.filter((t) => t >= FROM && t < TO);
  const both = { dateGt: 'exclusive', dateLt: 'exclusive' } as const;

  it.each([
    ['100, except 1 on the second answer', [100, 1, ...Array<number>(999).fill(100)]],
    ['100, then 1', [100, ...Array<number>(999).fill(1)]],
    ['100, 50, 10, 5, then 1', [100, 50, 10, 5, ...Array<number>(999).fill(1)]],
  ])(
    'newest first, a cap of %s: a span before the oldest row of an answer is never taken as empty by its size',
    async (_n, capSchedule) => {
      const api: ApiBehaviour = { ...ORDERS['newest first'], ...both, cap: 100, capSchedule };
      const got = await walk(times, api);
      expectSound(got, times, api);
    },
  );

  it('newest kept, date__lt rounded up to the hour, a cap of 5 then 3, rows 20 minutes apart: no row lost unsaid', async () => {
    const sparse = stationTimes(FROM - DAY, TO + DAY, 4 * STEP);
    const api: ApiBehaviour = {
      ...ORDERS['newest first'],
      dateGt: 'exclusive',
      dateLt: 'hour up',
      cap: 5,
      capSchedule: [5, ...Array<number>(999).fill(3)],
    };
    const got = await walk(sparse, api);
    expectSound(got, sparse, api);
  });

  it('a cap of one row keeping the oldest, the first answer listing its row twice: read whole', async () => {
    const api: ApiBehaviour = { ...ORDERS['oldest first'], ...both, cap: 1 };
    let n = 0;
    const got = await walk(times, api, undefined, (honest) => async (id, q) => {
      const out = await honest(id, q);
      if (++n !== 1 || !out.ok) return out;
      return { ok: true, value: { ...out.value, rows: [...out.value.rows, ...out.value.rows] } };
    });
    expectSound(got, times, api);
    expect(got.written.map(([t]) => t)).toEqual(inRange);
    expect(got.ok).toBe(true);
  });

  it('an API that ignores both dates and answers one new row past --to each time: stops at the bound', async () => {
    const api: ApiBehaviour = { ...ORDERS['oldest first'], ...both, cap: 1 };
    const bound = requestCeiling(FROM, TO, STEP * ROWS_PER_WINDOW, 0);
    let n = 0;
    // Past the bound, no rows at all: a walk that would follow the API for ever ends, and fails below.
    const got = await walk(times, api, undefined, (honest) => async (id, q) => {
      await honest(id, q); // counted as a request
      n++;
      const rows = n > 2 * bound ? [] : [row(TO + n * 1000)];
      return { ok: true, value: { rows, rejectedRows: 0 } };
    });
    expect(got.ok).toBe(false);
    expect(got.written).toEqual([]);
    expect(got.missing.map((m) => [m.fromMs, m.toMs])).toEqual([[FROM, TO]]);
    // Rows past --to do not raise the bound: it is that of a range of no rows.
    expect(got.requests).toBeLessThanOrEqual(bound);
  });
});

describe('one row per answer, rows that stop before --to', () => {
  it('read whole: no request reaches a day past --to, none is sent twice in a row', async () => {
    const times = stationTimes(FROM - DAY, TO - 3_600_000, STEP);
    const api: ApiBehaviour = { ...ORDERS['oldest first'], cap: 1, dateGt: 'exclusive', dateLt: 'exclusive' };
    const asked: ReadingsQuery[] = [];
    const got = await walk(times, api, undefined, (honest) => async (id, q) => {
      asked.push(q);
      return honest(id, q);
    });
    expectSound(got, times, api);
    expect(Math.max(...asked.map((q) => q.dateLtMs ?? 0))).toBeLessThan(TO + DAY);
    const twice = asked.filter((q, i) => i > 0 && JSON.stringify(q) === JSON.stringify(asked[i - 1]));
    expect(twice).toEqual([]);
    // Every row written, the span before the last row too: asked up to the second before it, the empty answer.
    expect(got.written.map(([t]) => t)).toEqual(times.filter((t) => t >= FROM && t < TO));
    expect(got.ok).toBe(true);
  });
});
