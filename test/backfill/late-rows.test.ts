import { describe, expect, it } from 'vitest';
import { lateSpans, noteLate } from '../../src/backfill/late-rows.js';

const MIN = 60_000;
const T = Date.UTC(2026, 9, 1);

describe('noteLate', () => {
  it('notes a row of a span already read that was not written, and nothing else', () => {
    const late = new Set<number>();
    const written = [T, T + 10 * MIN, T + 20 * MIN];
    const times = [T, T + 5 * MIN, T + 10 * MIN, T + 25 * MIN, T + 40 * MIN, T - MIN];
    noteLate(late, written, times, { fromMs: T, toMs: T + 60 * MIN, cursorMs: T + 30 * MIN });
    expect([...late]).toEqual([T + 5 * MIN, T + 25 * MIN]);
  });

  it('leaves out times outside the station’s range', () => {
    const late = new Set<number>();
    noteLate(late, [], [T - 1, T + 60 * MIN], { fromMs: T, toMs: T + 60 * MIN, cursorMs: T + 90 * MIN });
    expect(late.size).toBe(0);
  });
});

describe('lateSpans', () => {
  it('names each late row missing to the millisecond, joining late rows with no written row between', () => {
    const written = [T, T + 10 * MIN];
    const late = new Set([T + 12 * MIN, T + 5 * MIN, T + 2 * MIN, T + 15 * MIN]);
    const spans = lateSpans(late, written);
    expect(spans.map((s) => [s.fromMs - T, s.toMs - T])).toEqual([
      [2 * MIN, 5 * MIN + 1],
      [12 * MIN, 15 * MIN + 1],
    ]);
    expect(spans[0]?.failure).toEqual({
      reason: 'not_served',
      message:
        'the API gave a row at 2026-10-01T00:02:00Z after the span holding it had been read: it arrived late or an answer left it out',
    });
  });

  it('has nothing to name without late rows', () => {
    expect(lateSpans(new Set(), [T])).toEqual([]);
  });
});
