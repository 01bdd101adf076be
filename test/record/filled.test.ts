// What the last rounds wrote, kept apart from the gaps the store still shows: never asked or written twice.
import { describe, expect, it } from 'vitest';
import {
  FILLED_ROUNDS,
  inFilled,
  joinFilled,
  rememberFilled,
  withoutFilled,
} from '../../src/record/filled.js';

const M = 60_000;

describe('withoutFilled', () => {
  it('cuts the remembered spans out of the gaps, keeping what lies either side', () => {
    const gaps = [{ fromMs: 0, toMs: 100 * M }];
    expect(withoutFilled(gaps, [{ fromMs: 20 * M, toMs: 30 * M }])).toEqual([
      { fromMs: 0, toMs: 20 * M },
      { fromMs: 30 * M, toMs: 100 * M },
    ]);
    expect(withoutFilled(gaps, [{ fromMs: 0, toMs: 100 * M }])).toEqual([]);
  });

  it('leaves gaps a span does not touch, and every gap when nothing is remembered', () => {
    const gaps = [{ fromMs: 0, toMs: 10 * M }];
    expect(withoutFilled(gaps, [{ fromMs: 10 * M, toMs: 20 * M }])).toEqual(gaps);
    expect(withoutFilled(gaps, undefined)).toEqual(gaps);
    expect(withoutFilled(gaps, [])).toEqual(gaps);
  });
});

describe('inFilled', () => {
  it('holds a row from a span’s start up to, not at, its end', () => {
    const spans = [{ fromMs: 10 * M, toMs: 20 * M }];
    expect(inFilled(10 * M, spans)).toBe(true);
    expect(inFilled(20 * M - 1, spans)).toBe(true);
    expect(inFilled(20 * M, spans)).toBe(false);
    expect(inFilled(5 * M, undefined)).toBe(false);
  });
});

describe('rememberFilled', () => {
  it('keeps a round’s spans for the next rounds, then forgets them', () => {
    const wrote = new Map([[7, [{ fromMs: 0, toMs: 10 * M }]]]);
    let kept = rememberFilled(new Map(), wrote, 1, 0);
    expect(kept.get(7)).toEqual([{ fromMs: 0, toMs: 10 * M, round: 1 }]);
    for (let round = 2; round <= FILLED_ROUNDS; round++) {
      kept = rememberFilled(kept, new Map(), round, 0);
      expect(kept.get(7)).toHaveLength(1);
    }
    kept = rememberFilled(kept, new Map(), FILLED_ROUNDS + 1, 0);
    expect(kept.has(7)).toBe(false);
  });

  it('drops a span once the window has moved past it, and adds new spans beside kept ones', () => {
    const kept = rememberFilled(new Map(), new Map([[7, [{ fromMs: 0, toMs: 10 * M }]]]), 1, 0);
    expect(rememberFilled(kept, new Map(), 2, 10 * M).has(7)).toBe(false);
    const both = rememberFilled(kept, new Map([[7, [{ fromMs: 30 * M, toMs: 40 * M }]]]), 2, 0);
    expect(both.get(7)).toEqual([
      { fromMs: 0, toMs: 10 * M, round: 1 },
      { fromMs: 30 * M, toMs: 40 * M, round: 2 },
    ]);
  });

  it('leaves an older span its own round when a later span is joined across it, so it is asked again in time', () => {
    // Round 1 filled X (20–30); round 2 filled L (0–10) and R (40–50), joined as one span over X.
    let kept = rememberFilled(new Map(), new Map([[7, [{ fromMs: 20 * M, toMs: 30 * M }]]]), 1, 0);
    kept = rememberFilled(kept, new Map([[7, [{ fromMs: 0, toMs: 50 * M }]]]), 2, 0);
    expect(kept.get(7)).toEqual([
      { fromMs: 20 * M, toMs: 30 * M, round: 1 },
      { fromMs: 0, toMs: 20 * M, round: 2 },
      { fromMs: 30 * M, toMs: 50 * M, round: 2 },
    ]);
    // Round 3 lets X go and joins L and R across it again: X is not taken over, and is asked in round 4.
    const third = rememberFilled(kept, new Map([[7, [{ fromMs: 0, toMs: 50 * M }]]]), 1 + FILLED_ROUNDS, 0);
    expect(withoutFilled([{ fromMs: 20 * M, toMs: 30 * M }], third.get(7))).toEqual([
      { fromMs: 20 * M, toMs: 30 * M },
    ]);
    // After round 1 + FILLED_ROUNDS, X is a gap to ask again, whatever round 2 joined.
    kept = rememberFilled(kept, new Map(), 1 + FILLED_ROUNDS, 0);
    expect(withoutFilled([{ fromMs: 20 * M, toMs: 30 * M }], kept.get(7))).toEqual([
      { fromMs: 20 * M, toMs: 30 * M },
    ]);
  });
});

describe('joinFilled', () => {
  const gaps = [
    { fromMs: 10, toMs: 20 },
    { fromMs: 30, toMs: 40 },
    { fromMs: 50, toMs: 60 },
    { fromMs: 70, toMs: 80 },
  ];

  it('remembers consecutive filled gaps as one span, across the held rows between them', () => {
    expect(joinFilled(gaps, () => true)).toEqual([{ fromMs: 10, toMs: 80 }]);
  });

  it('breaks the span at a gap not filled, which a later round may still ask for', () => {
    const filled = joinFilled(gaps, (g) => g.fromMs !== 50);
    expect(filled).toEqual([
      { fromMs: 10, toMs: 40 },
      { fromMs: 70, toMs: 80 },
    ]);
    expect(withoutFilled([{ fromMs: 50, toMs: 60 }], filled)).toEqual([{ fromMs: 50, toMs: 60 }]);
  });

  it('remembers nothing when nothing was filled', () => {
    expect(joinFilled(gaps, () => false)).toEqual([]);
    expect(joinFilled([], () => true)).toEqual([]);
  });
});
