// What one answer proves, on the pure functions the walk folds its answers with.
import { describe, expect, it } from 'vitest';
import { advance, type Cover, nextAsk, proofOf } from '../../src/backfill/coverage.js';

const I = 300_000;
const T0 = Date.UTC(2026, 9, 1);
const TO = T0 + 1000 * I;
const fresh = { largest: 0, ignoresDateLt: false };
const rows = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i * I);
const ask = { gtMs: T0 - 1, ltMs: T0 + 288 * I };
const shape = (times: number[], size = times.length) => ({ times, size, sentLtMs: ask.ltMs });

describe('what an answer proves', () => {
  it('an answer smaller than the largest seen was not cut: its whole window is read', () => {
    const proof = proofOf(ask, shape(rows(T0 + 100 * I, 10)), { ...fresh, largest: 50 }, I);
    expect(advance({ cursorMs: ask.gtMs, proven: [], doubts: [] }, proof.spans, TO).cursorMs).toBe(
      ask.ltMs - 1,
    );
  });

  it('the first answer may have been cut at its old end: only its run, and what lies before it is asked next', () => {
    const proof = proofOf(ask, shape(rows(T0 + 188 * I, 100)), fresh, I);
    const cover = advance({ cursorMs: ask.gtMs, proven: [], doubts: [] }, proof.spans, TO);
    expect(cover.cursorMs).toBe(ask.gtMs);
    // Up to less than an interval before the run's oldest row: no row lies closer to it.
    expect(nextAsk(cover, TO, 288 * I)).toEqual({ gtMs: ask.gtMs, ltMs: T0 + 187 * I + 1 });
  });

  it('a run that starts within an interval of the cursor is read up to an interval after its newest row', () => {
    const proof = proofOf(ask, shape(rows(T0, 100)), fresh, I);
    const cover = advance({ cursorMs: ask.gtMs, proven: [], doubts: [] }, proof.spans, TO);
    expect(cover.cursorMs).toBe(T0 + 100 * I - 1);
  });

  it('learns that date__lt is ignored from a row more than an interval past it, and not from one at it', () => {
    expect(proofOf(ask, shape([ask.ltMs]), fresh, I).learnt.ignoresDateLt).toBe(false);
    expect(proofOf(ask, shape([ask.ltMs + I + 1]), fresh, I).learnt.ignoresDateLt).toBe(true);
  });

  it('a span in doubt is read once a larger answer shows the doubted one was whole', () => {
    const doubted: Cover = {
      cursorMs: ask.gtMs,
      proven: [],
      doubts: [{ span: { fromMs: ask.gtMs + 1, toMs: ask.ltMs }, size: 40, why: 'same rows' }],
    };
    expect(nextAsk(doubted, TO, 288 * I).gtMs).toBe(ask.ltMs - 1);
    expect(advance(doubted, [], TO, 40).cursorMs).toBe(ask.gtMs);
    expect(advance(doubted, [], TO, 41)).toEqual({ cursorMs: ask.ltMs - 1, proven: [], doubts: [] });
  });
});
