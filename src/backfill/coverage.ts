// What one answer proves about a station's rows, as plain data: the walk (walk.ts) asks for the first span it
// has no proof for, folds each answer's proof into what it knows, and writes rows only once everything before
// them is proven. Nothing here does I/O, so every way an API may order, cut or filter its answers is tested on
// these functions alone.
//
// Two premises, each a fact about any answer an API may give, not about one API:
// - an answer is a run of the station's rows with none left out in between: it may be cut at its old end or its
//   new end (by a cap of any size, varying from answer to answer), never in the middle;
// - the API never narrows date__gt (rounding it up would hide rows no answer shows are there: the one behaviour
//   the walk cannot see, docs/backfill.md).
// Nothing is assumed of how far apart rows are: a run proves only the span from its oldest to its newest row.
// Runs of two answers join because each request asks again for the row read last before it (its `anchorMs`) and,
// when it ends at rows already read, for the first of them (`knownMs`): an answer holding both proves all between.
// A window beyond the rows read is proven empty only by an answer that brings no new row in it, holds nothing but
// the row asked again (rows before date__gt too may have been cut right at that row by a cap that varies), and
// could not have been cut (no row at all, or fewer rows than the largest answer seen), and then only its first
// half: an API that rounds date__lt down answers a narrower window than was asked. An answer with rows only before
// a row read in the first half of its window (`beyondMs`) was not cut at its old end: nothing lies before them.

/** A span of time, half open: [fromMs, toMs). */
export interface Span {
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * One request: rows strictly after `gtMs` and strictly before `ltMs` are asked for. `anchorMs`: the row already
 * read that the window starts at (gtMs just before it). `knownMs`: a row already read that the window ends at
 * (ltMs just after it). `before`: the window ends where a span with no row read starts; it proves no window.
 * `beyondMs`: a row already read in the first half of the window (single-rows.ts). `untilMs`: a row already read
 * that the window ends within a second before (until-row.ts).
 */
export interface Ask {
  readonly gtMs: number;
  readonly ltMs: number;
  readonly anchorMs?: number;
  readonly knownMs?: number;
  readonly before?: true;
  readonly beyondMs?: number;
  readonly untilMs?: number;
}

/** What a station's walk has learnt of its API from its own answers. */
export interface Learnt {
  /** The most rows any answer held. */
  readonly largest: number;
}

export interface AnswerShape {
  /** Times of the rows read (any order, any range). */
  readonly times: readonly number[];
  /** Rows in the answer, rejected ones included: what a cap counts. */
  readonly size: number;
  /** The date__lt as sent (whole seconds, rounded up). */
  readonly sentLtMs: number;
}

export interface Proof {
  readonly spans: readonly Span[];
  readonly learnt: Learnt;
  /** A span the answer proves empty once a larger answer shows it was not cut by a cap. */
  readonly pending?: Span;
  /** The span it proves empty beyond its run, if any: a row seen there later shows the API narrows the dates. */
  readonly empty?: Span;
}

/**
 * The spans an answer to `ask` proves fully read (every row there is in the answer), and what it teaches.
 * `readBefore`: the newest row already read at or before the window's start, if any.
 */
export function proofOf(ask: Ask, answer: AnswerShape, learnt: Learnt, readBefore?: number): Proof {
  const sorted = increasing(answer.times) ? answer.times : [...answer.times].sort((a, b) => a - b);
  // Distinct rows read: duplicates, rejected and future rows do not show how many rows the cap lets through.
  const next: Learnt = { largest: Math.max(learnt.largest, distinct(sorted)) };
  const spans: Span[] = [];
  const oldest = sorted[0];
  const newest = sorted[sorted.length - 1];
  if (oldest !== undefined && newest !== undefined) spans.push({ fromMs: oldest, toMs: newest + 1 });
  if (ask.beyondMs !== undefined) {
    // Rows only before a row the window holds: the answer was not cut at its old end, whatever its size.
    const first = answer.size === sorted.length ? oldest : undefined;
    if (first === undefined || first <= ask.gtMs || (newest as number) >= ask.beyondMs)
      return { spans, learnt: next };
    const empty = { fromMs: ask.gtMs + 1, toMs: first };
    return { spans: [...spans, empty], learnt: next, empty };
  }
  const window = windowProof(ask, answer, sorted, readBefore);
  if (window === undefined) return { spans, learnt: next };
  // An answer with rows may have been cut by a cap unless it holds fewer than the largest answer seen.
  if (answer.size === 0 || answer.size < learnt.largest)
    return { spans: [...spans, window], learnt: next, empty: window };
  return { spans, learnt: next, pending: window };
}

/**
 * The part of the window asked that an answer proves empty beyond its run if it was not cut (see the head of
 * this file): an answer of rows already read only, consistent with every row read.
 */
function windowProof(
  ask: Ask,
  answer: AnswerShape,
  sorted: readonly number[],
  readBefore: number | undefined,
): Span | undefined {
  const start = ask.anchorMs ?? ask.gtMs;
  // Rejected rows: what they were is unknown.
  if (answer.size !== sorted.length) return undefined;
  // Asked up to just after a row already read: with the anchor, the run proves it all. Without it, an answer of
  // that row and nothing before it proves nothing: a cap keeping the newest rows may have fallen to that one row
  // (its size against the largest answer tells nothing when the cap varies). walk.ts asks again up to the row.
  if (ask.knownMs !== undefined) return undefined;
  // Up to the last whole second before a row read (until-row.ts): an empty answer, never cut, proves it all.
  if (ask.untilMs !== undefined)
    return sorted.length > 0 ? undefined : { fromMs: ask.gtMs + 1, toMs: ask.untilMs };
  if (ask.before) return undefined;
  if (sorted.length === 0) {
    // No row at all: but the anchor asked for is a row the API has.
    if (ask.anchorMs !== undefined) return undefined;
  } else {
    // Only the row asked again (the anchor), or, nothing read yet, nothing: an answer that also holds rows before
    // date__gt (a host that reads it earlier, to the hour or the day, or adds rows before it) may have been cut
    // right at the anchor by a cap that varies, and nothing in it tells.
    if (!sorted.every((t) => t <= start && t > ask.gtMs)) return undefined;
    if (readBefore === undefined || !sorted.includes(readBefore)) return undefined;
  }
  // Only the first half: an API that rounds date__lt down answers a narrower window than was asked.
  return { fromMs: start + 1, toMs: ask.gtMs + 1 + Math.floor((ask.ltMs - ask.gtMs) / 2) };
}

/** How many distinct times `sorted` (ascending) holds. */
function distinct(sorted: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) n++;
  return n;
}

/** Whether `times` are in strictly increasing order, as most answers list their rows. */
export function increasing(times: readonly number[]): boolean {
  for (let i = 1; i < times.length; i++) if ((times[i] as number) <= (times[i - 1] as number)) return false;
  return true;
}

/** The span of `spans` (sorted, disjoint) that holds `ms`, if any. */
export function spanHolding(spans: readonly Span[], ms: number): Span | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid] as Span;
    if (ms < s.fromMs) hi = mid - 1;
    else if (ms >= s.toMs) lo = mid + 1;
    else return s;
  }
  return undefined;
}

/** `spans` with `add` merged in: sorted, disjoint, touching spans joined. */
export function mergeSpans(spans: readonly Span[], add: readonly Span[]): Span[] {
  const all = [...spans, ...add].filter((s) => s.toMs > s.fromMs).sort((a, b) => a.fromMs - b.fromMs);
  const out: Span[] = [];
  for (const s of all) {
    const last = out[out.length - 1];
    if (last !== undefined && s.fromMs <= last.toMs)
      out[out.length - 1] = { fromMs: last.fromMs, toMs: Math.max(last.toMs, s.toMs) };
    else out.push(s);
  }
  return out;
}

/**
 * An answer that proved nothing new and brought no new row: the API gave the same rows for a span as before.
 * Asking again would bring the same answer, so the span is skipped and, at the end, named missing for `why`.
 */
export interface Doubt {
  readonly span: Span;
  readonly size: number;
  readonly why: string;
  /** What the answer proves once a larger one shows it was not cut (Proof.pending). */
  readonly proves?: Span;
}

/** Where a station's walk stands: every row up to `cursorMs` is read; `proven` are spans read beyond it. */
export interface Cover {
  readonly cursorMs: number;
  readonly proven: readonly Span[];
  readonly doubts: readonly Doubt[];
}

/**
 * `add` proven, and what the doubts an answer larger than theirs (`largest` rows) shows were not cut prove; the
 * cursor moved over every proven span that starts right after it, spans before it dropped.
 */
export function advance(cover: Cover, add: readonly Span[], toMs: number, largest = 0): Cover {
  const cleared = (d: Doubt): boolean => d.proves !== undefined && d.size < largest;
  const proves = clearedProofs(cover, largest);
  let cursorMs = cover.cursorMs;
  const proven = mergeSpans(cover.proven, [...add, ...proves]).filter((s) => s.toMs > cursorMs + 1);
  while (proven[0] !== undefined && proven[0].fromMs <= cursorMs + 1) {
    cursorMs = Math.max(cursorMs, (proven.shift() as Span).toMs - 1);
  }
  const doubts = cover.doubts.filter((d) => !cleared(d) && d.span.toMs > cursorMs + 1);
  return { cursorMs: Math.min(cursorMs, toMs - 1), proven, doubts };
}

/** What the doubts that an answer of `largest` rows shows were not cut prove empty. */
export function clearedProofs(cover: Cover, largest: number): Span[] {
  return cover.doubts.flatMap((d) => (d.proves !== undefined && d.size < largest ? [d.proves] : []));
}

/** The end of the span not yet proven after the cursor: the next proven span, or --to. */
export function unprovenEnd(cover: Cover, toMs: number): number {
  return Math.min(cover.proven[0]?.fromMs ?? toMs, toMs);
}

/** How much of (cursor, to) is proven: a walk whose answer adds nothing to this is going nowhere. */
export function provenMs(cover: Cover, toMs: number): number {
  let ms = cover.cursorMs;
  for (const s of cover.proven)
    ms += Math.max(0, Math.min(s.toMs, toMs) - Math.max(s.fromMs, cover.cursorMs + 1));
  return ms;
}

/** Where the next request starts: past the cursor, and past every proven or doubted span that follows it. */
export function askStart(cover: Cover): number {
  const spans = mergeSpans(
    cover.proven,
    cover.doubts.map((d) => d.span),
  );
  let at = cover.cursorMs;
  for (const s of spans) if (s.fromMs <= at + 1) at = Math.max(at, s.toMs - 1);
  return at;
}

/** What the walk knows when it picks the next request (each optional: a walk that has read nothing). */
export interface AskContext {
  /** Whether a row at exactly ms was read; the first row read at or after ms. */
  readonly readAt?: (ms: number) => boolean;
  readonly firstRead?: (ms: number) => number | undefined;
  /** Whether a request not anchored may look an interval back (false: rows there filled an answer already). */
  readonly lookBack?: boolean;
  readonly toMs?: number;
  /** The row read last, when every span from it to the cursor is proven: a request may start there again. */
  readonly lastRead?: number;
  /** The window as a multiple of windowMs: grown while answers prove windows empty (a gap, a silent station). */
  readonly stretch?: number;
}

/**
 * The next request, from askStart: `stretch` windows (the interval more when it starts at a row read, asked
 * again), up to just far enough past --to that its first half reaches it. After a span proven empty it starts
 * again at the row read last if its first half still reaches past the cursor: rows after a gap then join that
 * row's run in one answer. When a proven or doubted span starts inside it, it ends just after the first row read
 * there (an API that keeps the newest rows would answer the rows already read), or, with none, at the span.
 */
export function nextAsk(cover: Cover, windowMs: number, intervalMs: number, known: AskContext = {}): Ask {
  const { readAt = () => false, firstRead = () => undefined, lookBack = true } = known;
  const toMs = known.toMs ?? Number.POSITIVE_INFINITY;
  const at = askStart(cover);
  const length = windowMs * (known.stretch ?? 1);
  const again =
    at === cover.cursorMs && known.lastRead !== undefined && at - known.lastRead < length / 2
      ? known.lastRead
      : undefined;
  // From the row read last, asked again; else from an interval before, where a row may join the runs.
  const anchorMs = readAt(at) ? at : again;
  const gtMs = anchorMs !== undefined ? anchorMs - 1 : lookBack ? at - intervalMs : at;
  const anchor = anchorMs === undefined ? {} : { anchorMs };
  // No further past --to than the first half of the window (all an empty answer proves) needs to reach it, and
  // a second more for date__lt sent in whole seconds: rows past --to are not wanted. Never under two hours: a
  // host that rounds date__lt down to the hour must still answer the first half.
  const clipped = gtMs + 1000 + Math.max(2 * (toMs - gtMs), 2 * 3_600_000);
  const full = Math.min(gtMs + 1 + length + intervalMs, clipped);
  let start = Number.POSITIVE_INFINITY;
  for (const s of [...cover.proven, ...cover.doubts.map((d) => d.span)])
    if (s.fromMs > at + 1 && s.fromMs < full && s.fromMs < start) start = s.fromMs;
  if (start === Number.POSITIVE_INFINITY) return { gtMs, ltMs: full, ...anchor };
  const knownMs = firstRead(start);
  if (knownMs === undefined) return { gtMs, ltMs: start, before: true, ...anchor };
  // Up to a row read with none read before it in the window: from the row read last, however far back (every
  // span between is proven), so that one answer holding both proves all between, whatever end a cap cuts.
  const from = anchorMs ?? known.lastRead;
  if (from === undefined) return { gtMs, ltMs: knownMs + 1, knownMs };
  return { gtMs: from - 1, ltMs: knownMs + 1, knownMs, anchorMs: from };
}

/**
 * The most requests a station's range can need: each answer brings a new row, proves half a window (at least
 * half of `windowMs`) or the span up to a row read, or is a span in doubt that the walk then skips.
 */
export function requestCeiling(fromMs: number, toMs: number, windowMs: number, rowsRead = 0): number {
  const range = Math.max(0, toMs - fromMs);
  return 3 * rowsRead + 6 * Math.ceil(range / windowMs) + 64;
}
