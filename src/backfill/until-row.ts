// Proving the span before a row read when no row before it is known (a station whose rows start after --from, or
// after a long gap): an answer up to just after that row that holds it and nothing before it may have been cut at
// its old end by a cap keeping the newest rows that fell to one row, and its size against earlier answers tells
// nothing when the cap varies. So the same window is asked again up to the last whole second before the row: an
// empty answer cannot have been cut (coverage.ts, `untilMs`).
import type { AnswerShape, Ask } from './coverage.js';

/** date__lt as readings/read.ts sends it: whole seconds, rounded up. */
const sentLt = (ms: number): number => Math.ceil(ms / 1000) * 1000;

/**
 * The request that asks again up to just before the row `ask` ended at, after an answer (`shape`) that held that
 * row and nothing before it (or up to --to, `toMs`, when that row lies past it); undefined where none is asked. Only when that answer shows date__lt is not read
 * earlier: a host rounding it down to the minute, hour or day would have left the row out, unless a whole minute
 * lies between the row and the date__lt sent. Dates go in whole seconds, so the window stops at the last whole
 * second before the row: a row inside that last second, before the one read, is what it cannot see
 * (docs/backfill.md).
 */
export function untilRowAsk(ask: Ask, shape: AnswerShape, toMs: number): Ask | undefined {
  const known = ask.knownMs;
  if (known === undefined || ask.anchorMs !== undefined || shape.size !== shape.times.length)
    return undefined;
  if (!shape.times.includes(known) || shape.times.some((t) => t > ask.gtMs && t < known)) return undefined;
  if (sentLt(known + 1) % 60_000 === 0) return undefined;
  // A row past --to: only up to --to is wanted (a host that rounds date__lt up then may still answer none).
  const ltMs = Math.min(sentLt(known) - 1000, sentLt(toMs));
  if (ltMs <= ask.gtMs) return undefined;
  return { gtMs: ask.gtMs, ltMs, untilMs: ltMs >= toMs ? Math.min(known, ltMs) : known };
}
