// Walks one station's history forward: ask for the first span after the cursor that no answer has proven read
// (at most a window of 288 rows of the interval), fold what the answer proves into what is known (coverage.ts),
// and write the rows before the cursor as it moves. An answer cut by a cap at either end, in any order, or an API
// that ignores or stretches date__gt or date__lt, only changes which span is asked next; a span the API will not
// give (it answers the same rows whatever is asked) is reported missing, with why, and skipped. Each request is
// retried as retry.ts says.
import { type FetchReadingRows, type ReadingsQuery, sentDateLtMs } from '../readings/read.js';
import type { ParsedRows, ReadingsInterval, RowReading } from '../readings/schema.js';
import type { Failure, Result } from '../upstream/failure.js';
import {
  type AnswerShape,
  type Ask,
  advance,
  askStart,
  type Cover,
  clearedProofs,
  increasing,
  type Learnt,
  mergeSpans,
  nextAsk,
  proofOf,
  provenMs,
  requestCeiling,
  type Span,
  unprovenEnd,
} from './coverage.js';
import { type LateSpan, lateSpans, noteContradictions, noteLate } from './late-rows.js';
import { firstHeld, newestReadBy, newRows, release } from './new-rows.js';
import { type RetryOptions, withRetries } from './retry.js';
import { singleRowAsk } from './single-rows.js';
import { formatTime } from './time-spec.js';
import { untilRowAsk } from './until-row.js';
import { whyUnread } from './why-unread.js';

/** Rows per request the window is sized for: a day of 5-minute rows. */
export const ROWS_PER_WINDOW = 288;
/** How far the window grows over spans proven empty (a silent station, a day offline): an answer where rows start
 * again holds at most this many windows of them (1,152 rows, well under the 2 MiB readings body cap). */
export const MAX_STRETCH = 4;

export interface WalkOptions extends RetryOptions {
  readonly fetch: FetchReadingRows;
  readonly interval: ReadingsInterval;
  readonly intervalMs: number;
  readonly fromMs: number;
  readonly toMs: number;
  /** Called once per request sent. */
  readonly onRequest: (outcome: Result<ParsedRows>) => void;
  /** New rows of the station, in increasing time, never one at or before an earlier one; awaited (backpressure). */
  readonly onRows: (
    rows: readonly RowReading[],
    answer: { readonly rejectedRows: number; readonly futureRows?: number },
  ) => Promise<void>;
  /** Where the station's walk stands: every row up to this time has been read. */
  readonly onCursor?: (cursorMs: number) => void;
}

/** A span of the station's range not read, and why: a request that failed, or an API that would not give it. */
export interface MissingSpan {
  readonly fromMs: number;
  readonly toMs: number;
  readonly failure: Pick<Failure, 'message'> & { readonly reason: Failure['reason'] | 'not_served' };
}

export type StationOutcome =
  | { readonly ok: true; readonly rows: number }
  | { readonly ok: false; readonly rows: number; readonly missing: readonly MissingSpan[] };

/** A station's walk as plain data: what is proven, the rows read and not yet written, what it has learnt. */
interface Walk {
  cover: Cover;
  learnt: Learnt;
  /** Rows after the cursor, by time: written once the cursor passes them. */
  readonly ahead: Map<number, RowReading>;
  readonly missing: MissingSpan[];
  rows: number;
  requests: number;
  /** The newest row written: the next request asks for it again. */
  lastMs: number | undefined;
  /** The next window as a multiple of the window: doubled by each answer proving one empty, up to MAX_STRETCH. */
  stretch: number;
  /** Where an answer to a request looking an interval back brought nothing new: asked again without. */
  lookedBackAt: number | undefined;
  /** Spans proven empty by an answer (not by a run): a row seen there later contradicts it. */
  emptied: Span[];
  /** Spans proven empty where a later answer brought a row too late to write in order. */
  readonly contradicted: LateSpan[];
  /** Times of the rows written, ascending: a row seen later at or before the cursor and not here came late. */
  readonly writtenTimes: number[];
  /** Rows in the range seen at or before the cursor that were never written: each is named missing. */
  readonly late: Set<number>;
  /** The next request, when an answer up to just after a row read held that row and nothing before it. */
  confirm: Ask | undefined;
}

export async function walkStation(id: number, options: WalkOptions): Promise<StationOutcome> {
  const { fromMs, toMs, intervalMs } = options;
  const walk: Walk = {
    // Rows strictly after the cursor are still wanted; --from itself is included.
    cover: { cursorMs: fromMs - 1, proven: [], doubts: [] },
    learnt: { largest: 0 },
    ahead: new Map(),
    missing: [],
    rows: 0,
    requests: 0,
    lastMs: undefined,
    stretch: 1,
    lookedBackAt: undefined,
    emptied: [],
    contradicted: [],
    writtenTimes: [],
    late: new Set(),
    confirm: undefined,
  };
  const windowMs = intervalMs * ROWS_PER_WINDOW;
  // Rows held past --to do not count: an API that answers ever newer rows there must not push the bound away.
  const ceiling = (): number => requestCeiling(fromMs, toMs, windowMs, walk.rows + heldBefore(walk, toMs));
  while (askStart(walk.cover) < toMs - 1) {
    if (walk.requests >= ceiling()) {
      walk.missing.push({ fromMs: walk.cover.cursorMs + 1, toMs, failure: tooMany(walk.requests) });
      break;
    }
    const ask =
      takeConfirm(walk) ??
      singleRowsAsk(walk, windowMs, toMs) ??
      nextAsk(walk.cover, windowMs, intervalMs, {
        readAt: (ms) => walk.lastMs === ms || walk.ahead.has(ms),
        firstRead: (ms) => firstHeld(walk.ahead, ms),
        lookBack: walk.lookedBackAt !== askStart(walk.cover),
        toMs,
        ...(walk.lastMs === undefined ? {} : { lastRead: walk.lastMs }),
        stretch: walk.stretch,
      });
    const failed = await walkStep(id, walk, ask, options);
    if (failed) {
      walk.missing.push({ fromMs: walk.cover.cursorMs + 1, toMs, failure: failed });
      break;
    }
    options.onCursor?.(walk.cover.cursorMs);
  }
  if (walk.missing.length === 0) await settleDoubts(walk, options);
  const contradicted = walk.contradicted
    .map((m) => ({ ...m, fromMs: Math.max(m.fromMs, fromMs), toMs: Math.min(m.toMs, toMs) }))
    .filter((m) => m.toMs > m.fromMs);
  const named = [...walk.missing, ...contradicted];
  const late = lateSpans(walk.late, walk.writtenTimes).filter(
    (m) => !named.some((n) => m.fromMs >= n.fromMs && m.toMs <= n.toMs),
  );
  const missing = [...named, ...late].sort((a, b) => a.fromMs - b.fromMs);
  return missing.length === 0 ? { ok: true, rows: walk.rows } : { ok: false, rows: walk.rows, missing };
}

const tooMany = (requests: number): MissingSpan['failure'] => ({
  reason: 'not_served',
  message: `the API kept answering without covering this range after ${requests} requests, the most it can need`,
});

/** Everything asked: each span still in doubt is missing, and the rows after it are written. */
async function settleDoubts(walk: Walk, options: WalkOptions): Promise<void> {
  const { toMs } = options;
  while (walk.cover.cursorMs < toMs - 1) {
    const at = walk.cover.cursorMs + 1;
    const doubt = walk.cover.doubts.find((d) => d.span.fromMs <= at && d.span.toMs > at);
    const why = doubt?.why ?? 'no answer covered this span';
    skip(walk, toMs, { reason: 'not_served', message: why });
    const written = release(walk.ahead, walk.cover.cursorMs);
    noteWritten(walk, written);
    if (written.length > 0) walk.lastMs = written[written.length - 1]?.reading.atMs;
    if (written.length > 0) await options.onRows(written, { rejectedRows: 0 });
    options.onCursor?.(walk.cover.cursorMs);
  }
}

/**
 * One request of the walk, what it proves folded in and the rows it lets go written; a failure when it could not
 * be read. A function of its own so that the answer, rows and all, is garbage once it returns: the walk itself
 * then awaits the next request for as long as the API takes, and what its frame held would live through
 * collections.
 */
async function walkStep(
  id: number,
  walk: Walk,
  ask: Ask,
  options: WalkOptions,
): Promise<Failure | undefined> {
  const { toMs, intervalMs } = options;
  const query: ReadingsQuery = { interval: options.interval, dateGtMs: ask.gtMs, dateLtMs: ask.ltMs };
  walk.requests++;
  const outcome = await withRetries(() => options.fetch(id, query), options, options.onRequest);
  if (!outcome.ok) return outcome;
  const answer = outcome.value;
  const times = answer.rows.map((r) => r.reading.atMs);
  const shape: AnswerShape = {
    times: increasing(times) ? times : times.sort((a, b) => a - b),
    size: answer.rows.length + answer.rejectedRows + (answer.futureRows ?? 0),
    sentLtMs: sentDateLtMs(ask.ltMs),
  };
  // Proven past --to counts too: it moves the window asked next.
  const before = provenMs(walk.cover, Number.POSITIVE_INFINITY);
  const proof = proofOf(
    ask,
    shape,
    walk.learnt,
    newestReadBy(walk.ahead, walk.lastMs, ask.anchorMs ?? ask.gtMs),
  );
  walk.learnt = proof.learnt;
  // Rows past --to are held, never written: a window that ends at one is confirmed by it.
  noteContradictions(walk.contradicted, walk.emptied, shape.times, walk.cover.cursorMs);
  noteLate(walk.late, walk.writtenTimes, shape.times, {
    fromMs: options.fromMs,
    toMs: options.toMs,
    cursorMs: walk.cover.cursorMs,
  });
  // Spans of doubts a larger answer clears are proven empty too: a row seen there later contradicts them.
  const emptied = [...clearedProofs(walk.cover, walk.learnt.largest), ...(proof.empty ? [proof.empty] : [])];
  if (emptied.length > 0) walk.emptied = mergeSpans(walk.emptied, emptied);
  const fresh = newRows(answer.rows, walk.cover.cursorMs, Number.POSITIVE_INFINITY);
  walk.stretch =
    fresh.length > 0 ? 1 : proof.empty === undefined ? walk.stretch : Math.min(2 * walk.stretch, MAX_STRETCH);
  walk.cover = advance(walk.cover, proof.spans, toMs, walk.learnt.largest);
  // The usual answer is read whole, up to the new cursor, with nothing held from before: written as it is.
  const whole = walk.ahead.size === 0 && (fresh[fresh.length - 1]?.reading.atMs ?? 0) <= walk.cover.cursorMs;
  if (!whole) for (const r of fresh) if (!walk.ahead.has(r.reading.atMs)) walk.ahead.set(r.reading.atMs, r);
  // Nothing new proven: asking again would bring the same answer. The span is in doubt until a larger answer
  // shows this one was whole, and missing if none does.
  walk.confirm = untilRowAsk(ask, shape, toMs);
  const at = ask.anchorMs ?? ask.gtMs + intervalMs;
  const lookedBack =
    ask.anchorMs === undefined &&
    ask.untilMs === undefined &&
    walk.lookedBackAt !== at &&
    askStart(walk.cover) === at;
  if (walk.confirm !== undefined) {
    // Asked again up to just before that row next: the span is in doubt only if that answer proves nothing.
  } else if (provenMs(walk.cover, Number.POSITIVE_INFINITY) === before && lookedBack) {
    walk.lookedBackAt = at;
  } else if (provenMs(walk.cover, Number.POSITIVE_INFINITY) === before) {
    const doubt = {
      // Up to the row itself when asked up to the second before it: that row's run starts there.
      span: { fromMs: ask.gtMs + 1, toMs: ask.untilMs ?? ask.ltMs },
      size: shape.size,
      why: whyUnread(ask, shape, formatTime),
      ...(proof.pending === undefined ? {} : { proves: proof.pending }),
    };
    walk.cover = { ...walk.cover, doubts: [...walk.cover.doubts, doubt] };
  }
  const written = whole ? fresh : release(walk.ahead, walk.cover.cursorMs);
  noteWritten(walk, written);
  if (written.length > 0) walk.lastMs = written[written.length - 1]?.reading.atMs;
  if (written.length > 0 || answer.rejectedRows > 0 || answer.futureRows)
    await options.onRows(written, answer);
  return undefined;
}

/** The confirming request, once, while the span it asks is still the next one not proven. */
function takeConfirm(walk: Walk): Ask | undefined {
  const ask = walk.confirm;
  walk.confirm = undefined;
  if (ask === undefined || askStart(walk.cover) >= (ask.untilMs as number) - 1) return undefined;
  return ask;
}

/** How many rows held after the cursor lie before --to. */
function heldBefore(walk: Walk, toMs: number): number {
  let n = 0;
  for (const at of walk.ahead.keys()) if (at < toMs) n++;
  return n;
}

/** Reports the span from the cursor to the next proven one as missing, and moves the cursor past it. */
function skip(walk: Walk, toMs: number, failure: MissingSpan['failure']): void {
  const end = unprovenEnd(walk.cover, toMs);
  const last = walk.missing[walk.missing.length - 1];
  // Spans in doubt side by side for the same reason are one missing range.
  if (last !== undefined && last.toMs > walk.cover.cursorMs && last.failure.message === failure.message)
    walk.missing[walk.missing.length - 1] = { ...last, toMs: end };
  else walk.missing.push({ fromMs: walk.cover.cursorMs + 1, toMs: end, failure });
  walk.cover = advance({ ...walk.cover, cursorMs: end - 1 }, [], toMs);
}

/** While every answer has held one row at most, the request single-rows.ts picks, if any. */
function singleRowsAsk(walk: Walk, windowMs: number, toMs: number): Ask | undefined {
  if (walk.learnt.largest !== 1) return undefined;
  const held = [...walk.ahead.keys()].sort((a, b) => a - b);
  return singleRowAsk(walk.cover, held, windowMs * walk.stretch, toMs);
}

/** Rows written, counted and their times kept (ascending, as they are written). */
function noteWritten(walk: Walk, written: readonly RowReading[]): void {
  walk.rows += written.length;
  for (const r of written) walk.writtenTimes.push(r.reading.atMs);
}
