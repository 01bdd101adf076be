// How a readings API may read date__gt and date__lt, cap its answers and order their rows: none of it is in the
// spec, so the backfill must read everything any of these can give. The test simulator serves a station's rows
// by these rules (startSimulator's `api`), and the in-process walk tests answer with the same function.

/** How a date is read: as sent (exclusive or inclusive), not at all, or rounded to the hour (then exclusive). */
export type DateRule = 'exclusive' | 'inclusive' | 'ignored' | 'hour down' | 'hour up' | 'day down';

export interface ApiBehaviour {
  /** Which rows a capped answer keeps: the oldest (cut at the new end) or the newest (cut at the old end). */
  readonly keeps: 'oldest' | 'newest';
  /** The order rows are listed in; `mixed` is a fixed shuffle. */
  readonly order: 'ascending' | 'descending' | 'mixed';
  /** Rows per answer at most; Infinity for none. */
  readonly cap: number;
  readonly dateGt: DateRule;
  readonly dateLt: DateRule;
  /** A cap that varies: request n (from 1) is capped at capSchedule[(n - 1) % length]; overrides `cap`. */
  readonly capSchedule?: readonly number[];
  /** From request repeatAfter + 1 on, the answer of request repeatAfter again, whatever is asked. */
  readonly repeatAfter?: number;
  /**
   * Rows that reach CityAir late (a station's buffer sent after an outage): rows in [fromMs, toMs) are left out of
   * the answers to the first `afterRequest` requests, and in every answer after.
   */
  readonly late?: { readonly fromMs: number; readonly toMs: number; readonly afterRequest: number };
  /** Rows before date__gt added to every answer: this many, the newest of them, ahead of the rows asked for. */
  readonly outside?: number;
}

/** What an API remembers between requests of one station: the answer it repeats. */
export interface ApiMemory {
  repeated?: number[];
}

/** The three orders the issue names, as which rows a cap keeps and how they are listed. */
export const ORDERS = {
  'oldest first': { keeps: 'oldest', order: 'ascending' },
  'newest first': { keeps: 'newest', order: 'descending' },
  'newest but ascending': { keeps: 'newest', order: 'ascending' },
  'oldest, mixed': { keeps: 'oldest', order: 'mixed' },
  'newest, mixed': { keeps: 'newest', order: 'mixed' },
} as const satisfies Record<string, Pick<ApiBehaviour, 'keeps' | 'order'>>;

/** What the demo simulator does: oldest first, date__gt honoured, date__lt ignored, at most 500 rows. */
export const DEMO_LIKE: ApiBehaviour = {
  keeps: 'oldest',
  order: 'ascending',
  cap: 500,
  dateGt: 'exclusive',
  dateLt: 'ignored',
};

/** Honours both dates, oldest first, no cap. */
export const WELL_BEHAVED: ApiBehaviour = {
  keeps: 'oldest',
  order: 'ascending',
  cap: Number.POSITIVE_INFINITY,
  dateGt: 'exclusive',
  dateLt: 'exclusive',
};

/** The times (ms, ascending) a station has: every step from `fromMs` to before `toMs`, except in `gaps`. */
export function stationTimes(
  fromMs: number,
  toMs: number,
  stepMs: number,
  gaps: readonly (readonly [number, number])[] = [],
): number[] {
  const out: number[] = [];
  for (let t = fromMs; t < toMs; t += stepMs) if (!gaps.some(([a, b]) => t >= a && t < b)) out.push(t);
  return out;
}

/** `times` with, after every `every`th row, one more `offsetMs` later: rows closer together than the interval. */
export function withExtraRows(times: readonly number[], every: number, offsetMs: number): number[] {
  return times.flatMap((t, i) => ((i + 1) % every === 0 ? [t, t + offsetMs] : [t]));
}

const HOUR = 3_600_000;

/** A date as the API reads it: rounded to the hour or the day, or as sent. */
function readDate(ms: number, rule: DateRule): number {
  if (rule === 'day down') return Math.floor(ms / 86_400_000) * 86_400_000;
  if (rule === 'hour down') return Math.floor(ms / HOUR) * HOUR;
  if (rule === 'hour up') return Math.ceil(ms / HOUR) * HOUR;
  return ms;
}

/**
 * The times an answer holds, in its order, for date__gt and date__lt as sent (whole seconds), to the station's
 * `request`th request (from 1); `memory` is the station's, kept by the caller between requests.
 */
export function answerTimes(
  times: readonly number[],
  sentGtMs: number | undefined,
  sentLtMs: number | undefined,
  api: ApiBehaviour,
  request = 1,
  memory: ApiMemory = {},
): number[] {
  if (api.repeatAfter !== undefined && request > api.repeatAfter && memory.repeated !== undefined)
    return [...memory.repeated];
  const gt = sentGtMs === undefined ? undefined : readDate(sentGtMs, api.dateGt);
  const lt = sentLtMs === undefined ? undefined : readDate(sentLtMs, api.dateLt);
  const after = (t: number): boolean =>
    gt === undefined || api.dateGt === 'ignored' || (api.dateGt === 'inclusive' ? t >= gt : t > gt);
  const before = (t: number): boolean =>
    lt === undefined || api.dateLt === 'ignored' || (api.dateLt === 'inclusive' ? t <= lt : t < lt);
  const late = api.late;
  const arrived = (t: number): boolean =>
    late === undefined || request > late.afterRequest || t < late.fromMs || t >= late.toMs;
  const asked = times.filter((t) => arrived(t) && after(t) && before(t));
  const first = asked[0];
  const extra =
    api.outside === undefined || gt === undefined
      ? []
      : times.filter((t) => arrived(t) && t <= gt && (first === undefined || t < first)).slice(-api.outside);
  const picked = [...extra, ...asked];
  const schedule = api.capSchedule;
  const cap = schedule?.length ? (schedule[(request - 1) % schedule.length] as number) : api.cap;
  const answer = ordered(picked, Math.min(cap, picked.length), api);
  if (api.repeatAfter !== undefined && request <= api.repeatAfter) memory.repeated = answer;
  return answer;
}

/** `n` of the rows picked, the end the API keeps, in its order. */
function ordered(picked: readonly number[], n: number, api: ApiBehaviour): number[] {
  const kept = api.keeps === 'oldest' ? picked.slice(0, n) : picked.slice(picked.length - n);
  if (api.order === 'descending') return kept.reverse();
  if (api.order === 'mixed')
    return kept
      .map((t, i) => [t, (i * 7919) % 13] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([t]) => t);
  return kept;
}
