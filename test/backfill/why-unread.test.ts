// The summary's words for an answer that proved nothing new: each names what the API did, in the user's terms.
import { describe, expect, it } from 'vitest';
import { whyUnread } from '../../src/backfill/why-unread.js';

const I = 300_000;
const T0 = Date.UTC(2026, 9, 1);
const fmt = (ms: number): string => new Date(ms).toISOString();
const ask = { gtMs: T0, ltMs: T0 + 12 * I };
const answer = (times: number[], size = times.length) => ({ times, size, sentLtMs: ask.ltMs });

describe('why an answer proved nothing new', () => {
  it('a row asked up to just after it and not given back: date__lt narrowed or the answer cut there', () => {
    const why = whyUnread({ ...ask, knownMs: T0 + 5 * I }, answer([T0 + I]), fmt);
    expect(why).toContain(`did not give back the row at ${fmt(T0 + 5 * I)}`);
  });

  it('no rows where a row read before should be: date__gt narrowed', () => {
    const why = whyUnread({ ...ask, anchorMs: T0 + I }, answer([]), fmt);
    expect(why).toContain(`no rows where the row at ${fmt(T0 + I)}`);
    expect(why).toContain('date__gt');
  });

  it('an empty answer up to rows already read', () => {
    expect(whyUnread(ask, answer([]), fmt)).toBe(
      'the API answered no rows up to rows already read, and nothing confirms the span empty',
    );
  });

  it('rows none of which could be read', () => {
    expect(whyUnread(ask, answer([], 7), fmt)).toBe(
      'the API answered 7 rows for this range, none of them readable (all rejected)',
    );
  });

  it('the same newest rows whatever the dates asked: it cannot give older rows', () => {
    const why = whyUnread(ask, answer([T0 + 20 * I, T0 + 13 * I]), fmt);
    expect(why).toContain(`the same newest rows (2, from ${fmt(T0 + 13 * I)})`);
  });

  it('rows only at or before date__gt: it cannot give newer rows', () => {
    const why = whyUnread(ask, answer([T0 - 2 * I, T0]), fmt);
    expect(why).toContain(`at or before the date__gt asked (2, up to ${fmt(T0)})`);
  });

  it('an answer of many thousand rows is judged without overflowing the call stack', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => T0 - i);
    expect(whyUnread(ask, answer(many), fmt)).toContain('cannot give newer rows');
  });

  it('rows inside the window that add nothing', () => {
    expect(whyUnread(ask, answer([T0 + I, T0 + 2 * I]), fmt)).toBe(
      'the API answered 2 rows that add nothing to what was read',
    );
  });
});
