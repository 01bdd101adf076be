// Which rows of a station the store lacks, from the row dates it holds, as plain data: no I/O and no clock but the
// times handed in, so every case is tested with a fake clock. The store's copy of
// cityair_measurement_timestamp_seconds carries each row's date as its value, live scrape or backfilled sample
// alike, so the dates it holds are the rows it holds. A station's rows are as far apart as it reports, which may
// be less often than the readings interval: two rows further apart than 1.5 times its usual spacing (never less
// than the interval) may have rows between them, and only CityAir can say.
import { mergeSpans, type Span } from '../backfill/coverage.js';

export type { Span } from '../backfill/coverage.js';

/** Rows older than this much of the interval past the row before may have a row between them. */
const GAP_FACTOR = 1.5;

/** The rows a round looks at: [now − lookback, now − max-age); younger rows are the live readings'. */
export function windowAt(nowMs: number, lookbackMs: number, maxAgeMs: number): Span {
  return { fromMs: nowMs - lookbackMs, toMs: nowMs - maxAgeMs };
}

/** Fewer spacings than this between held rows say nothing of a station's own pace. */
const MIN_SPACINGS = 4;

/**
 * A station's usual spacing between rows, from the row dates the store holds: the median of the spacings of
 * consecutive rows, never less than the readings interval. A station that reports every 20 minutes, read at 5m,
 * has 20 minutes between its rows, and nothing is missing between two of them; gaps, being rarer than rows, do not
 * move the median. Pure.
 */
export function spacingOf(held: readonly number[], intervalMs: number): number {
  if (held.length <= MIN_SPACINGS) return intervalMs;
  const spacings: number[] = [];
  for (let i = 1; i < held.length; i++) spacings.push((held[i] as number) - (held[i - 1] as number));
  spacings.sort((a, b) => a - b);
  return Math.max(intervalMs, spacings[Math.floor((spacings.length - 1) / 2)] as number);
}

/**
 * The spans of `window` where rows may be missing: between two held rows further apart than 1.5 times the
 * station's spacing (`spacingMs`: the readings interval, or more for a station that reports less often), before
 * the first and after the last. `held` is sorted and may reach before and after the window (rows just outside
 * it bound the spans at its edges). A span is [fromMs, toMs): the rows strictly between the held rows either side.
 */
export function gapsIn(held: readonly number[], window: Span, spacingMs: number): Span[] {
  const most = spacingMs * GAP_FACTOR;
  const gaps: Span[] = [];
  const add = (after: number, before: number): void => {
    const fromMs = Math.max(after + 1, window.fromMs);
    const toMs = Math.min(before, window.toMs);
    if (toMs > fromMs) gaps.push({ fromMs, toMs });
  };
  let previous: number | undefined;
  for (const at of held) {
    if (at >= window.toMs + most) break;
    // With no held row before it (they are asked for from two intervals before the window), a row a spacing
    // before the first one held would be in the window: it may be missing. Less than that, and the window, which
    // slides on every round, would ask CityAir for a sliver of it every time.
    if (previous === undefined ? at - window.fromMs >= spacingMs : at - previous > most)
      add(previous ?? window.fromMs - 1, at);
    previous = at;
  }
  if (previous === undefined) add(window.fromMs - 1, window.toMs);
  else if (window.toMs - previous > most) add(previous, window.toMs);
  return gaps;
}

/** What the rounds have learnt of a station: spans CityAir answered no row for. */
export interface Quiet {
  /** Sorted, disjoint spans CityAir had no row in when last asked. */
  readonly spans: readonly Span[];
  /** The newest row the store held for the station then: a newer one means it has reported since. */
  readonly newestHeldMs: number | undefined;
  /** Rounds in a row that found them empty, and the round of the last ask. */
  readonly misses: number;
  readonly round: number;
}

/** Rounds between asks of a span already found empty, at most: 1, 2, 4 … 32 rounds. */
const MAX_SKIP_ROUNDS = 32;

/**
 * The gaps worth asking CityAir for this round. A gap inside spans CityAir answered empty is asked again only
 * once the station has reported since (a row newer than the newest held then): a station back from a lost
 * connection uploads its buffer, rows that arrive late. Even then it is asked at growing distances (the next
 * round, then 2, 4 … 32 rounds later), so a hole CityAir will never fill costs a few requests, not one a round.
 * A silent station costs nothing: its gap after the last row it sent stays where the last ask left it.
 */
export function gapsToAsk(
  gaps: readonly Span[],
  quiet: Quiet | undefined,
  newestHeldMs: number | undefined,
  round: number,
): Span[] {
  if (quiet === undefined) return [...gaps];
  const reported = (newestHeldMs ?? -Infinity) > (quiet.newestHeldMs ?? -Infinity);
  const due = round - quiet.round >= Math.min(MAX_SKIP_ROUNDS, 2 ** Math.max(0, quiet.misses - 1));
  const lastQuiet = quiet.spans[quiet.spans.length - 1];
  return gaps.filter((gap) => {
    const known = quiet.spans.some((s) => s.fromMs <= gap.fromMs && s.toMs >= gap.toMs);
    // Nothing newer reached the store: the gap after the station's last row only grew with the window.
    const stillSilent = !reported && lastQuiet !== undefined && gap.fromMs >= lastQuiet.fromMs;
    if (!known && !stillSilent) return true;
    return reported && due;
  });
}

/**
 * What a round leaves learnt: the gaps asked that CityAir answered no row for join the quiet spans (a gap that
 * got rows is no longer quiet), and spans older than the window are forgotten.
 */
export function learn(
  quiet: Quiet | undefined,
  asked: readonly Span[],
  emptied: readonly Span[],
  newestHeldMs: number | undefined,
  round: number,
  window: Span,
): Quiet | undefined {
  const filled = asked.filter((a) => !emptied.includes(a));
  const kept = (quiet?.spans ?? []).filter(
    (s) => s.toMs > window.fromMs && !filled.some((f) => f.fromMs < s.toMs && f.toMs > s.fromMs),
  );
  const spans = mergeSpans(kept, emptied);
  if (spans.length === 0) return undefined;
  if (emptied.length === 0 && quiet !== undefined) return { ...quiet, spans };
  const misses = emptied.length > 0 && quiet !== undefined ? quiet.misses + 1 : 1;
  return { spans, newestHeldMs, misses, round };
}

/**
 * The gaps of a station as ranges to read with the walk: gaps closer together than a window of the walk (so one
 * request of the walk spans them) are one range; the rows between them that the store holds are read again and
 * not written.
 */
export function rangesOf(gaps: readonly Span[], windowMs: number): Span[] {
  const ranges: Span[] = [];
  for (const gap of gaps) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && gap.toMs - last.fromMs <= windowMs)
      ranges[ranges.length - 1] = { fromMs: last.fromMs, toMs: gap.toMs };
    else ranges.push(gap);
  }
  return ranges;
}

/** Sorted distinct row dates (ms) out of the values (Unix seconds) of a store's timestamp series. */
export function rowDates(values: Iterable<number>): number[] {
  const set = new Set<number>();
  for (const v of values) if (Number.isFinite(v)) set.add(Math.round(v * 1000));
  return [...set].sort((a, b) => a - b);
}
