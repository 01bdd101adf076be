// How a readings API may read date__gt and date__lt, cap its answers and order their rows: none of it is in the
// spec, so the backfill must read everything any of these can give. The test simulator serves a station's rows
// by these rules (startSimulator's `api`), and the in-process walk tests answer with the same function.

export type DateRule = 'exclusive' | 'inclusive' | 'ignored';

export interface ApiBehaviour {
  /** Which rows a capped answer keeps: the oldest (cut at the new end) or the newest (cut at the old end). */
  readonly keeps: 'oldest' | 'newest';
  /** The order rows are listed in; `mixed` is a fixed shuffle. */
  readonly order: 'ascending' | 'descending' | 'mixed';
  /** Rows per answer at most; Infinity for none. */
  readonly cap: number;
  readonly dateGt: DateRule;
  readonly dateLt: DateRule;
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

/** The times an answer holds, in its order, for date__gt and date__lt as sent (whole seconds). */
export function answerTimes(
  times: readonly number[],
  sentGtMs: number | undefined,
  sentLtMs: number | undefined,
  api: ApiBehaviour,
): number[] {
  const after = (t: number): boolean =>
    sentGtMs === undefined ||
    api.dateGt === 'ignored' ||
    (api.dateGt === 'inclusive' ? t >= sentGtMs : t > sentGtMs);
  const before = (t: number): boolean =>
    sentLtMs === undefined ||
    api.dateLt === 'ignored' ||
    (api.dateLt === 'inclusive' ? t <= sentLtMs : t < sentLtMs);
  const picked = times.filter((t) => after(t) && before(t));
  const n = Math.min(api.cap, picked.length);
  const kept = api.keeps === 'oldest' ? picked.slice(0, n) : picked.slice(picked.length - n);
  if (api.order === 'descending') return kept.reverse();
  if (api.order === 'mixed')
    return kept
      .map((t, i) => [t, (i * 7919) % 13] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([t]) => t);
  return kept;
}
