// What one answer proves about a station's rows, as plain data: the walk (walk.ts) asks for the first span it
// has no proof for, folds each answer's proof into what it knows, and writes rows only once everything before
// them is proven. Nothing here does I/O, so every way an API may order, cut or filter its answers is tested on
// these functions alone.
//
// Three premises, each a fact about any answer an API may give, not about one API:
// - an answer is a run of the station's rows with none left out in between: it may be cut at its old end or its
//   new end (a cap), never in the middle (the rows asked for, filtered by the dates as the API reads them);
// - rows of one station are at least an interval apart (each is the mean of one interval), so a row at t says
//   no other row lies less than an interval before or after it (a row repeated at the same time is one row);
// - a cap is the same for every answer of a station: an answer smaller than the largest one seen was not cut.

/** A span of time, half open: [fromMs, toMs). */
export interface Span {
  readonly fromMs: number;
  readonly toMs: number;
}

/** One request: rows strictly after `gtMs` and strictly before `ltMs` are asked for. */
export interface Ask {
  readonly gtMs: number;
  readonly ltMs: number;
}

/** What a station's walk has learnt of its API from its own answers. */
export interface Learnt {
  /** The most rows any answer held: an answer with fewer was not cut by a cap. */
  readonly largest: number;
  /** An answer brought a row more than an interval past the date__lt sent: the API does not honour it. */
  readonly ignoresDateLt: boolean;
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
}

/** The spans an answer to `ask` proves fully read (every row there is in the answer), and what it teaches. */
export function proofOf(ask: Ask, answer: AnswerShape, learnt: Learnt, intervalMs: number): Proof {
  const { times, size } = answer;
  const largest = Math.max(learnt.largest, size);
  let oldest = Number.POSITIVE_INFINITY;
  let newest = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    if (t < oldest) oldest = t;
    if (t > newest) newest = t;
  }
  const ignoresDateLt = learnt.ignoresDateLt || newest > answer.sentLtMs + intervalMs;
  const next: Learnt = { largest, ignoresDateLt };
  // An empty answer was cut by nothing; a cap of zero rows would make every answer empty.
  const cut = size > 0 && size >= largest;
  const spans: Span[] = [];
  if (!cut) spans.push({ fromMs: ask.gtMs + 1, toMs: ignoresDateLt ? Number.POSITIVE_INFINITY : ask.ltMs });
  // The run from its oldest to its newest row, and less than an interval either side, where no row can be.
  if (times.length > 0) spans.push({ fromMs: oldest - intervalMs + 1, toMs: newest + intervalMs });
  return { spans, learnt: next };
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
 * An answer that proved nothing new: the API gave the same rows for a span as before. It may still have been a
 * whole answer (a span with no rows, answered with rows outside it): once a larger answer shows it was not cut by
 * a cap, its span is proven; if none ever does, the span is missing, for the reason `why`.
 */
export interface Doubt {
  readonly span: Span;
  readonly size: number;
  readonly why: string;
}

/** Where a station's walk stands: every row up to `cursorMs` is read; `proven` are spans read beyond it. */
export interface Cover {
  readonly cursorMs: number;
  readonly proven: readonly Span[];
  readonly doubts: readonly Doubt[];
}

/**
 * `add` proven, and the doubts a cap of `largest` rows clears; the cursor moved over every proven span that
 * starts right after it, and spans at or before it dropped.
 */
export function advance(cover: Cover, add: readonly Span[], toMs: number, largest = 0): Cover {
  const cleared = cover.doubts.filter((d) => d.size < largest).map((d) => d.span);
  let cursorMs = cover.cursorMs;
  const proven = mergeSpans(cover.proven, [...add, ...cleared]).filter((s) => s.toMs > cursorMs + 1);
  while (proven[0] !== undefined && proven[0].fromMs <= cursorMs + 1) {
    cursorMs = Math.max(cursorMs, (proven.shift() as Span).toMs - 1);
  }
  const doubts = cover.doubts.filter((d) => d.size >= largest && d.span.toMs > cursorMs + 1);
  return { cursorMs: Math.min(cursorMs, toMs - 1), proven, doubts };
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

/** The next request: from askStart to the next proven or doubted span, at most `windowMs` long, before --to. */
export function nextAsk(cover: Cover, toMs: number, windowMs: number): Ask {
  const gtMs = askStart(cover);
  let ltMs = Math.min(toMs, gtMs + 1 + windowMs);
  for (const s of [...cover.proven, ...cover.doubts.map((d) => d.span)])
    if (s.fromMs > gtMs + 1 && s.fromMs < ltMs) ltMs = s.fromMs;
  return { gtMs, ltMs };
}

/**
 * The most requests a station's range can need when the premises hold: each answer either proves its whole
 * window, brings at least one new row, or shows that the API cannot give a span (which the walk then skips);
 * rows are an interval apart, so there are at most range / interval + 1 of them.
 */
export function requestCeiling(fromMs: number, toMs: number, intervalMs: number, windowMs: number): number {
  const range = Math.max(0, toMs - fromMs);
  return 3 * Math.ceil(range / intervalMs) + Math.ceil(range / windowMs) + 5;
}

/**
 * Why an answer proved nothing new, in the words of the summary: the times it did bring, against the ask.
 */
export function whyUnread(ask: Ask, answer: AnswerShape, format: (ms: number) => string): string {
  const { times, size } = answer;
  if (times.length === 0)
    return `the API answered ${size} rows for this range, none of them readable (all rejected)`;
  // Loops, not Math.max(...times): an answer of many thousand rows would overflow the call's arguments.
  let oldest = Number.POSITIVE_INFINITY;
  let newest = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    oldest = Math.min(oldest, t);
    newest = Math.max(newest, t);
  }
  if (oldest >= ask.ltMs)
    return (
      `the API answered the same newest rows (${size}, from ${format(oldest)}) whatever date__gt and date__lt ` +
      'asked: it cannot give older rows'
    );
  if (newest <= ask.gtMs)
    return (
      `the API answered the same rows at or before the date__gt asked (${size}, up to ${format(newest)}) ` +
      'whatever date__gt asked: it cannot give newer rows'
    );
  return `the API answered ${size} rows that add nothing to what was read`;
}
