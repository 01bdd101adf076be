import { describe, expect, it } from 'vitest';
import { forever, memoUntil } from '../../src/collector/memo.js';

/** A memo that counts its computations and expires its value `ttl` ms after computing it. */
function counted(ttl = Number.POSITIVE_INFINITY) {
  let computed = 0;
  const memo = memoUntil((nowMs, a: object, b: object) => {
    computed++;
    return { value: { a, b, at: nowMs }, untilMs: nowMs + ttl };
  });
  return { memo, computed: () => computed };
}

describe('memoUntil', () => {
  it('computes once for the same input objects', () => {
    const { memo, computed } = counted();
    const [a, b] = [{}, {}];
    const first = memo(1, a, b);
    expect(memo(2, a, b)).toBe(first);
    expect(memo(1_000_000, a, b)).toBe(first);
    expect(computed()).toBe(1);
  });

  it('computes again when any input is a new object, even an equal one', () => {
    const { memo, computed } = counted();
    const [a, b] = [{ x: 1 }, { y: 1 }];
    memo(1, a, b);
    memo(1, { x: 1 }, b);
    memo(1, { x: 1 }, { y: 1 });
    expect(computed()).toBe(3);
  });

  it('keeps the value up to its deadline and computes it again after', () => {
    const { memo, computed } = counted(100);
    const [a, b] = [{}, {}];
    const first = memo(0, a, b);
    expect(memo(100, a, b)).toBe(first);
    const second = memo(101, a, b);
    expect(second).not.toBe(first);
    expect(second.at).toBe(101);
    expect(computed()).toBe(2);
  });

  it('remembers the last inputs only', () => {
    const { memo, computed } = counted();
    const [a, b, c] = [{}, {}, {}];
    memo(0, a, b);
    memo(0, c, b);
    memo(0, a, b);
    expect(computed()).toBe(3);
  });
});

describe('forever', () => {
  it('never expires', () => {
    expect(forever('v')).toEqual({ value: 'v', untilMs: Number.POSITIVE_INFINITY });
  });
});
