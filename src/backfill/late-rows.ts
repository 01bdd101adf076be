// Rows that come late: CityAir receives a station's buffered rows when the station reaches it, so a span the walk
// has read (and written past) may hold rows later. Such a row cannot be written in order any more; it is named
// missing, to the millisecond, so the retry command reads it. The same catches an answer that left a row out, and
// a row inside a span an answer proved empty.
import { type Span, spanHolding } from './coverage.js';
import { formatTime } from './time-spec.js';

/** A late row's range as walk.ts names a span missing (its MissingSpan; not imported: walk.ts imports this). */
export interface LateSpan {
  readonly fromMs: number;
  readonly toMs: number;
  readonly failure: { readonly reason: 'not_served'; readonly message: string };
}

/** The first index of `sorted` whose time is after `ms`. */
function firstAfter(sorted: readonly number[], ms: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `sorted` holds `ms`. */
const holds = (sorted: readonly number[], ms: number): boolean => {
  const i = firstAfter(sorted, ms) - 1;
  return i >= 0 && sorted[i] === ms;
};

/**
 * Adds to `late` each time of an answer (`times`, ascending) that lies in [fromMs, toMs), at or before the cursor
 * (a span already read) and is not among the rows written (`written`, ascending).
 */
export function noteLate(
  late: Set<number>,
  written: readonly number[],
  times: readonly number[],
  at: { readonly fromMs: number; readonly toMs: number; readonly cursorMs: number },
): void {
  for (const t of times) {
    if (t > at.cursorMs) return;
    if (t >= at.fromMs && t < at.toMs && !holds(written, t)) late.add(t);
  }
}

/** The late rows as missing spans: [t, t + 1 ms) each, rows with no row written between them joined into one. */
export function lateSpans(late: ReadonlySet<number>, written: readonly number[]): LateSpan[] {
  const out: LateSpan[] = [];
  for (const t of [...late].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    const between = written[firstAfter(written, (last?.toMs ?? 0) - 1)];
    if (last !== undefined && (between === undefined || between >= t)) {
      out[out.length - 1] = { ...last, toMs: t + 1 };
      continue;
    }
    out.push({
      fromMs: t,
      toMs: t + 1,
      failure: {
        reason: 'not_served',
        message:
          `the API gave a row at ${formatTime(t)} after the span holding it had been read: it arrived late or ` +
          'an answer left it out',
      },
    });
  }
  return out;
}

/**
 * A row at or before the cursor inside a span an earlier answer proved empty (`emptied`): the API narrows date__gt
 * or date__lt, and the row cannot be written in order any more. Its span is named missing, never passed over.
 * `times`: the answer's, ascending.
 */
export function noteContradictions(
  contradicted: LateSpan[],
  emptied: readonly Span[],
  times: readonly number[],
  cursorMs: number,
): void {
  for (const t of times) {
    if (t > cursorMs) return;
    const span = spanHolding(emptied, t);
    if (span === undefined || contradicted.some((m) => m.fromMs === span.fromMs)) continue;
    contradicted.push({
      fromMs: span.fromMs,
      toMs: span.toMs,
      failure: {
        reason: 'not_served',
        message:
          `the API gave a row at ${formatTime(t)} inside a span an earlier answer showed empty: ` +
          'it narrows date__gt or date__lt, so rows there may be missing',
      },
    });
  }
}
