// What one answer proves, on the pure functions the walk folds its answers with.
import { describe, expect, it } from 'vitest';
import { advance, type Cover, clearedProofs, nextAsk, proofOf } from '../../src/backfill/coverage.js';

const I = 300_000;
const W = 288 * I;
const T0 = Date.UTC(2026, 9, 1);
const TO = T0 + 1000 * I;
const rows = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i * I);
const ask = { gtMs: T0 - 1, ltMs: T0 + W };
const shape = (times: number[], size = times.length) => ({ times, size, sentLtMs: ask.ltMs });
const start: Cover = { cursorMs: ask.gtMs, proven: [], doubts: [] };

describe('what an answer proves', () => {
  it('a run proves from its oldest to its newest row, nothing either side, whatever the largest answer', () => {
    const proof = proofOf(ask, shape(rows(T0, 10)), { largest: 50 });
    expect(proof.spans).toEqual([{ fromMs: T0, toMs: T0 + 9 * I + 1 }]);
  });

  it('a run cut at its old end: what lies before it is asked up to just after its oldest row', () => {
    const proof = proofOf(ask, shape(rows(T0 + 188 * I, 100)), { largest: 0 });
    const cover = advance(start, proof.spans, TO);
    expect(cover.cursorMs).toBe(ask.gtMs);
    expect(nextAsk(cover, W, I, { firstRead: () => T0 + 188 * I })).toEqual({
      gtMs: ask.gtMs - I,
      ltMs: T0 + 188 * I + 1,
      knownMs: T0 + 188 * I,
    });
  });

  it('the next request starts at the row read last, asked again, and is an interval longer', () => {
    const cover: Cover = { cursorMs: T0 + 5 * I, proven: [], doubts: [] };
    expect(nextAsk(cover, W, I, { readAt: (ms) => ms === T0 + 5 * I })).toEqual({
      gtMs: T0 + 5 * I - 1,
      ltMs: T0 + 5 * I + W + I,
      anchorMs: T0 + 5 * I,
    });
  });

  it('up to just after a row read, with no row read before it: that row alone proves nothing, whatever its size', () => {
    const upTo = { gtMs: ask.gtMs, ltMs: T0 + 188 * I + 1, knownMs: T0 + 188 * I };
    expect(proofOf(upTo, shape([]), { largest: 100 }).spans).toEqual([]);
    // A cap keeping the newest rows that fell to one row gives this answer too, rows before it or not.
    expect(proofOf(upTo, shape([T0 + 188 * I]), { largest: 100 }).spans).toEqual([
      { fromMs: T0 + 188 * I, toMs: T0 + 188 * I + 1 },
    ]);
    expect(proofOf(upTo, shape([T0 + 188 * I]), { largest: 100 }).pending).toBeUndefined();
  });

  it('up to the second before a row read: an empty answer proves up to that row, any other nothing', () => {
    const until = { gtMs: ask.gtMs, ltMs: T0 + 188 * I - 1000, untilMs: T0 + 188 * I };
    expect(proofOf(until, shape([]), { largest: 100 }).spans).toEqual([
      { fromMs: ask.gtMs + 1, toMs: T0 + 188 * I },
    ]);
    expect(proofOf(until, shape([T0 + 188 * I]), { largest: 100 }).spans).toHaveLength(1);
    expect(proofOf(until, shape([], 1), { largest: 100 }).spans).toEqual([]);
  });

  it('with a row read before, a request up to a row read starts at that row: one answer of both proves all', () => {
    const cover: Cover = {
      cursorMs: T0 + 400 * I,
      proven: [{ fromMs: T0 + 500 * I, toMs: T0 + 600 * I }],
      doubts: [],
    };
    expect(nextAsk(cover, W, I, { firstRead: () => T0 + 500 * I, lastRead: T0 + 10 * I, toMs: TO })).toEqual({
      gtMs: T0 + 10 * I - 1,
      ltMs: T0 + 500 * I + 1,
      knownMs: T0 + 500 * I,
      anchorMs: T0 + 10 * I,
    });
  });

  it('the largest answer counts distinct rows read: a row listed twice, rejected or future rows do not raise it', () => {
    expect(proofOf(ask, shape([T0, T0]), { largest: 0 }).learnt.largest).toBe(1);
    expect(proofOf(ask, shape([T0], 5), { largest: 0 }).learnt.largest).toBe(1);
    expect(proofOf(ask, shape([T0, T0 + I]), { largest: 1 }).learnt.largest).toBe(2);
  });

  it('an empty answer to a whole window proves its first half only: date__lt may have been rounded down', () => {
    expect(proofOf(ask, shape([]), { largest: 0 }).spans).toEqual([{ fromMs: T0, toMs: T0 + 144 * I }]);
  });

  it('an empty answer where the row asked again should be proves nothing', () => {
    const anchored = { gtMs: T0 - 1, ltMs: T0 + W, anchorMs: T0 };
    expect(proofOf(anchored, shape([]), { largest: 100 }).spans).toEqual([]);
    // After the anchor: the row asked again is no part of what is proven empty.
    expect(proofOf(anchored, shape([T0]), { largest: 100 }, T0).spans).toContainEqual({
      fromMs: T0 + 1,
      toMs: T0 + 144 * I,
    });
  });

  it('no proof to the end of time from a row past the date__lt sent', () => {
    const proof = proofOf(ask, shape([ask.ltMs + 2 * I]), { largest: 100 });
    expect(proof.spans).toEqual([{ fromMs: ask.ltMs + 2 * I, toMs: ask.ltMs + 2 * I + 1 }]);
  });

  it('rows before the window without the row read last (an API repeating an old answer) prove no window', () => {
    const anchored = { gtMs: T0 + 99 * I - 1, ltMs: T0 + 99 * I + W, anchorMs: T0 + 99 * I };
    expect(proofOf(anchored, shape(rows(T0, 88)), { largest: 100 }, T0 + 99 * I).spans).toHaveLength(1);
  });

  it('a span in doubt is skipped and stays in doubt, whatever is answered later', () => {
    const doubted: Cover = {
      cursorMs: ask.gtMs,
      proven: [],
      doubts: [{ span: { fromMs: ask.gtMs + 1, toMs: ask.ltMs }, size: 40, why: 'same rows' }],
    };
    expect(nextAsk(doubted, W, I).gtMs).toBe(ask.ltMs - 1 - I);
    expect(advance(doubted, [], TO).cursorMs).toBe(ask.gtMs);
  });

  it('rows only before a row read in the first half of the window: the answer was not cut at its old end', () => {
    const beyond = { gtMs: T0, ltMs: T0 + 1000 + 2 * 3_600_000, beyondMs: T0 + 2 * I };
    // As large as the largest answer, and still proven: a cap keeping the newest rows would have held T0 + 2I.
    expect(proofOf(beyond, shape([T0 + I]), { largest: 1 }).spans).toContainEqual({
      fromMs: T0 + 1,
      toMs: T0 + I,
    });
    // Holding that row, holding a row at or before date__gt, or nothing at all (the row read is missing): no proof.
    expect(proofOf(beyond, shape([T0 + 2 * I]), { largest: 1 }).spans).toHaveLength(1);
    expect(proofOf(beyond, shape([T0]), { largest: 1 }).spans).toHaveLength(1);
    expect(proofOf(beyond, shape([]), { largest: 1 }).spans).toEqual([]);
  });

  it('a doubt an answer larger than it clears proves its span empty, for the walk to check later rows against', () => {
    const proves = { fromMs: T0 + 1, toMs: T0 + 144 * I };
    const doubted: Cover = {
      cursorMs: T0,
      proven: [],
      doubts: [{ span: { fromMs: T0 + 1, toMs: T0 + W }, size: 1, why: 'as large as the largest', proves }],
    };
    expect(clearedProofs(doubted, 1)).toEqual([]);
    expect(clearedProofs(doubted, 2)).toEqual([proves]);
    expect(advance(doubted, [], TO, 2).cursorMs).toBe(T0 + 144 * I - 1);
  });
});
