// What the last rounds wrote, remembered so that it is never written again while the store does not show it yet.
// A store shows a write after a delay of its own (VictoriaMetrics about a second, a Thanos Query behind a receiver
// longer), and a round that reads its gaps from the store then would see the rows just written as missing and
// write them a second time: VictoriaMetrics keeps both. Each station keeps the spans its walks finished (every row
// CityAir had there was written or held), stamped with the round; the next rounds neither ask CityAir for them
// nor write a row inside them. Plain data and pure functions; bounded by the spans of the last rounds.
import type { Span } from './gaps.js';

/** A span every row of which CityAir had is in the store or on its way there, and the round that wrote it. */
export interface FilledSpan extends Span {
  readonly round: number;
}

/**
 * Rounds after the one that wrote a span during which it is not asked or written again: by then the store has
 * had at least two full --record.interval to show it (rounds start an interval after the last one ended). A row
 * CityAir receives late inside such a span waits these rounds.
 */
export const FILLED_ROUNDS = 2;

/** `gaps` without the parts inside remembered spans. */
export function withoutFilled(gaps: readonly Span[], filled: readonly Span[] | undefined): Span[] {
  if (filled === undefined || filled.length === 0) return [...gaps];
  let left: Span[] = [...gaps];
  for (const f of filled) {
    const next: Span[] = [];
    for (const g of left) {
      if (f.toMs <= g.fromMs || f.fromMs >= g.toMs) {
        next.push(g);
        continue;
      }
      if (g.fromMs < f.fromMs) next.push({ fromMs: g.fromMs, toMs: f.fromMs });
      if (f.toMs < g.toMs) next.push({ fromMs: f.toMs, toMs: g.toMs });
    }
    left = next;
  }
  return left;
}

/** Whether the row at `atMs` lies in a remembered span. */
export function inFilled(atMs: number, filled: readonly Span[] | undefined): boolean {
  return filled?.some((f) => atMs >= f.fromMs && atMs < f.toMs) ?? false;
}

/**
 * The spans kept after `round`: those of the last FILLED_ROUNDS rounds still inside the window, and the new ones.
 * A station with none is dropped, so the memory is the last rounds' writes, no more.
 */
export function rememberFilled(
  before: ReadonlyMap<number, readonly FilledSpan[]>,
  wrote: ReadonlyMap<number, readonly Span[]>,
  round: number,
  windowFromMs: number,
): Map<number, readonly FilledSpan[]> {
  const kept = new Map<number, readonly FilledSpan[]>();
  const keep = (s: FilledSpan): boolean => round - s.round < FILLED_ROUNDS && s.toMs > windowFromMs;
  for (const [id, spans] of before) {
    const left = spans.filter(keep);
    if (left.length > 0) kept.set(id, left);
  }
  for (const [id, spans] of wrote) {
    // A span joined across an older one (whose gaps were not this round's to ask, kept or now let go) does not take
    // it over: stamped anew, a row late inside it would wait a round more for every round that fills on both sides.
    const fresh = withoutFilled(spans, before.get(id)).map((s) => ({
      fromMs: s.fromMs,
      toMs: s.toMs,
      round,
    }));
    if (fresh.length > 0) kept.set(id, [...(kept.get(id) ?? []), ...fresh]);
  }
  return kept;
}

/**
 * The spans a walk finished, as few as they can be: consecutive gaps it filled are one span from the first to the
 * last, unless a gap it did not fill lies between them. What lies between two filled gaps is held rows, where a
 * round finds no gap to ask for anyway: 10 % of 48 hours missing at random is some 60 gaps a station, remembered as
 * two or three spans. Pure.
 */
export function joinFilled(gaps: readonly Span[], done: (gap: Span) => boolean): Span[] {
  const spans: Span[] = [];
  let run: Span | undefined;
  for (const gap of gaps) {
    if (!done(gap)) {
      if (run !== undefined) spans.push(run);
      run = undefined;
    } else
      run =
        run === undefined ? { fromMs: gap.fromMs, toMs: gap.toMs } : { fromMs: run.fromMs, toMs: gap.toMs };
  }
  if (run !== undefined) spans.push(run);
  return spans;
}
