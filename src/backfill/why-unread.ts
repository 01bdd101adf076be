// Why an answer proved nothing new, in the words of the summary: what walk.ts names a span in doubt for.
import type { AnswerShape, Ask } from './coverage.js';

/**
 * Why an answer proved nothing new, in the words of the summary: the times it did bring, against the ask.
 */
export function whyUnread(ask: Ask, answer: AnswerShape, format: (ms: number) => string): string {
  const { times, size } = answer;
  if (ask.knownMs !== undefined && !times.includes(ask.knownMs))
    return (
      `the API did not give back the row at ${format(ask.knownMs)} when asked up to just after it: it narrows ` +
      'date__lt or cuts its answers there, so what lies before that row cannot be confirmed'
    );
  if (size === 0 && ask.anchorMs !== undefined)
    return (
      `the API answered no rows where the row at ${format(ask.anchorMs)}, read before, should be: it narrows ` +
      'date__gt, so this span cannot be confirmed'
    );
  if (size === 0)
    return 'the API answered no rows up to rows already read, and nothing confirms the span empty';
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
  if (newest <= (ask.anchorMs ?? ask.gtMs))
    return (
      `the API answered the same rows at or before the date__gt asked (${size}, up to ${format(newest)}) ` +
      'whatever date__gt asked: it cannot give newer rows'
    );
  return `the API answered ${size} rows that add nothing to what was read`;
}
