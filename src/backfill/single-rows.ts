// Asking an API whose answers have held one row at most (a cap of 1): the row asked again then fills the answer
// by itself, so no two runs ever join and an answer of the row read last proves nothing (it may have been cut).
// Instead each span after the cursor is asked without that row: from the cursor up to a window holding, in its
// first half, a row already read beyond the next one held. An answer with rows before that row only was cut at its
// new end, if at all: it holds the oldest rows after date__gt, so nothing lies between the cursor and its oldest
// row (coverage.ts, `beyondMs`). Rows ahead come from asking past the newest row held, without it.
import { type Ask, askStart, type Cover, spanHolding } from './coverage.js';

/** A window never under this, nor under twice the span it must hold: date__lt may be rounded down to the hour. */
const LEAST_WINDOW_MS = 2 * 3_600_000;

/**
 * The next request of a walk whose answers have held one row at most, or undefined where the usual request is
 * asked instead (a span in doubt next, or the span past the newest row held already asked without an answer).
 * `held`: the rows read after the cursor, ascending. `lengthMs`: the window a request past a row spans.
 */
export function singleRowAsk(
  cover: Cover,
  held: readonly number[],
  lengthMs: number,
  toMs = Number.POSITIVE_INFINITY,
): Ask | undefined {
  const at = cover.cursorMs;
  if (askStart(cover) !== at) return undefined;
  const beyond = held[1];
  if (beyond !== undefined) {
    // One second more: date__lt is sent in whole seconds.
    const ltMs = at + 1000 + Math.max(2 * (beyond - at), LEAST_WINDOW_MS);
    return { gtMs: at, ltMs, beyondMs: beyond };
  }
  const from = held[0] ?? at;
  if (cover.doubts.some((d) => d.span.fromMs <= from + 1 && d.span.toMs > from + 1)) return undefined;
  // No further past --to than its first half needs to reach it (and a second more: date__lt in whole seconds).
  const clipped = from + 1000 + Math.max(2 * (toMs - from), LEAST_WINDOW_MS);
  // Once proven past that row to --to, asking again would bring the same empty answer. What lies between the
  // cursor and that row, the newest of any window now, is asked up to just after it, and then up to the second
  // before it (until-row.ts): an empty answer proves it whatever end a cap keeps.
  const past = spanHolding(cover.proven, from + 1);
  if (past === undefined || past.toMs < toMs)
    return { gtMs: from, ltMs: Math.min(from + 1 + Math.max(lengthMs, LEAST_WINDOW_MS), clipped) };
  return held[0] === undefined ? undefined : { gtMs: at, ltMs: from + 1, knownMs: from };
}
