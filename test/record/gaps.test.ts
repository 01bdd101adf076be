// Gap finding as plain functions: the row dates a store holds into the spans where rows may be missing, what is
// worth asking CityAir for again, and how gaps become the walk's ranges.
import { describe, expect, it } from 'vitest';
import { gapsIn, gapsToAsk, learn, rangesOf, rowDates, spacingOf, windowAt } from '../../src/record/gaps.js';

const M5 = 300_000;
const NOW = Date.UTC(2026, 10, 27, 12, 0);
const window = windowAt(NOW, 6 * 3_600_000, 30 * 60_000);
const every5m = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let t = from; t < to; t += M5) out.push(t);
  return out;
};

describe('gapsIn', () => {
  it('finds nothing when every row of the window is held, and held rows bound its edges', () => {
    const held = every5m(window.fromMs - 2 * M5, NOW);
    expect(gapsIn(held, window, M5)).toEqual([]);
  });

  it('finds the outage between two held rows, as the rows strictly between them', () => {
    const before = every5m(window.fromMs - 2 * M5, window.fromMs + 3_600_000);
    const after = every5m(window.fromMs + 2 * 3_600_000, NOW);
    const gaps = gapsIn([...before, ...after], window, M5);
    const last = before[before.length - 1] as number;
    expect(gaps).toEqual([{ fromMs: last + 1, toMs: after[0] }]);
  });

  it('finds the whole window when nothing is held, and the tail after a station went silent', () => {
    expect(gapsIn([], window, M5)).toEqual([window]);
    const held = every5m(window.fromMs - 2 * M5, window.fromMs + 3_600_000);
    const last = held[held.length - 1] as number;
    expect(gapsIn(held, window, M5)).toEqual([{ fromMs: last + 1, toMs: window.toMs }]);
  });

  it('finds one missing row, and none in rows closer together than the interval', () => {
    const held = every5m(window.fromMs - 2 * M5, NOW).filter((t) => t !== window.fromMs + 12 * M5);
    expect(gapsIn(held, window, M5)).toEqual([
      { fromMs: window.fromMs + 11 * M5 + 1, toMs: window.fromMs + 13 * M5 },
    ]);
    const dense = every5m(window.fromMs - 2 * M5, NOW).flatMap((t) => [t, t + 60_000]);
    expect(gapsIn(dense, window, M5)).toEqual([]);
  });

  it('leaves the rows younger than max-age to the live readings', () => {
    // Nothing held after the window: the live rows are not the record's to look for.
    const held = every5m(window.fromMs - 2 * M5, window.toMs);
    expect(gapsIn(held, window, M5)).toEqual([]);
  });
});

describe('gapsToAsk with a fake clock of rounds', () => {
  const quietSpan = { fromMs: window.fromMs + 1, toMs: window.fromMs + 3_600_000 };

  it('asks a gap never asked', () => {
    expect(gapsToAsk([quietSpan], undefined, NOW - M5, 1)).toEqual([quietSpan]);
  });

  it('does not ask a silent station again: its gap only grew with the window', () => {
    const quiet = learn(undefined, [quietSpan], [quietSpan], window.fromMs, 1, window);
    const grown = { fromMs: quietSpan.fromMs, toMs: quietSpan.toMs + 15 * 60_000 };
    for (let round = 2; round < 40; round++)
      expect(gapsToAsk([grown], quiet, window.fromMs, round)).toEqual([]);
  });

  it('asks an empty span again once the station reported since, at 1, 2, 4 … rounds apart', () => {
    let quiet = learn(undefined, [quietSpan], [quietSpan], window.fromMs, 1, window);
    const asked: number[] = [];
    for (let round = 2; round <= 20; round++) {
      // A station that reports: a newer row held at every round.
      const newest = NOW + round * 15 * 60_000;
      const ask = gapsToAsk([quietSpan], quiet, newest, round);
      if (ask.length > 0) {
        asked.push(round);
        quiet = learn(quiet, ask, ask, newest, round, window);
      }
    }
    expect(asked).toEqual([2, 4, 8, 16]);
  });

  it('forgets a span once rows filled it, and spans that left the window', () => {
    const quiet = learn(undefined, [quietSpan], [quietSpan], window.fromMs, 1, window);
    expect(learn(quiet, [quietSpan], [], NOW, 2, window)).toBeUndefined();
    const later = windowAt(NOW + 7 * 3_600_000, 6 * 3_600_000, 30 * 60_000);
    expect(learn(quiet, [], [], NOW, 2, later)).toBeUndefined();
  });
});

describe('rangesOf and rowDates', () => {
  it('joins gaps a window of the walk apart into one range, and keeps far ones apart', () => {
    const a = { fromMs: 0, toMs: M5 };
    const b = { fromMs: 10 * M5, toMs: 11 * M5 };
    const c = { fromMs: 1000 * M5, toMs: 1001 * M5 };
    expect(rangesOf([a, b, c], 288 * M5)).toEqual([{ fromMs: 0, toMs: 11 * M5 }, c]);
  });

  it('reads distinct row dates from the values of the timestamp series', () => {
    expect(rowDates([1_795_766_400, 1_795_766_400, 1_795_766_100, Number.NaN])).toEqual([
      1_795_766_100_000, 1_795_766_400_000,
    ]);
  });
});

describe('the edge of a sliding window', () => {
  it('asks nothing before the first held row when it is less than an interval inside the window', () => {
    const held = every5m(window.fromMs + 4 * 60_000, NOW);
    expect(gapsIn(held, window, M5)).toEqual([]);
    const later = every5m(window.fromMs + M5, NOW);
    expect(gapsIn(later, window, M5)).toEqual([{ fromMs: window.fromMs, toMs: window.fromMs + M5 }]);
  });
});

describe("a station's own spacing", () => {
  const M = 60_000;
  it('is the median spacing of its held rows, never less than the interval', () => {
    const every20 = Array.from({ length: 30 }, (_, i) => i * 20 * M);
    expect(spacingOf(every20, 5 * M)).toBe(20 * M);
    // A long outage among regular rows does not move it.
    expect(spacingOf([...every20.slice(0, 10), ...every20.slice(20)], 5 * M)).toBe(20 * M);
    expect(spacingOf([0, M, 2 * M, 3 * M, 4 * M, 5 * M], 5 * M)).toBe(5 * M);
    // Too few rows to say: the interval.
    expect(spacingOf([0, 60 * M, 120 * M], 5 * M)).toBe(5 * M);
  });

  it('makes no gap between rows a spacing apart, nor at the window’s moving end', () => {
    const rows = Array.from({ length: 30 }, (_, i) => i * 20 * M);
    const window = { fromMs: 60 * M, toMs: 29 * 20 * M + 25 * M };
    expect(gapsIn(rows, window, 20 * M)).toEqual([]);
    expect(gapsIn(rows, window, 5 * M).length).toBeGreaterThan(20);
  });
});
