// The request after answers of one row at most: each span past the cursor asked without the row read last.
import { describe, expect, it } from 'vitest';
import type { Cover } from '../../src/backfill/coverage.js';
import { singleRowAsk } from '../../src/backfill/single-rows.js';

const I = 300_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 9, 1);
const at = (cursorMs: number, extra: Partial<Cover> = {}): Cover => ({
  cursorMs,
  proven: [],
  doubts: [],
  ...extra,
});

describe('the next request of a walk read one row at a time', () => {
  it('asks from the cursor past the next row held, to a window holding a row read further on in its first half', () => {
    const held = [T0 + I, T0 + 2 * I];
    const ask = singleRowAsk(at(T0), held, 288 * I);
    // Twice the span to that row would be 20 minutes: the window never falls under two hours (date__lt rounded).
    expect(ask).toEqual({ gtMs: T0, ltMs: T0 + 1000 + 2 * HOUR, beyondMs: T0 + 2 * I });
  });

  it('a row held far ahead: the window is twice the span to it, so that row lies in its first half', () => {
    const far = T0 + 10 * HOUR;
    const ask = singleRowAsk(at(T0), [T0 + I, far], 288 * I);
    expect(ask).toEqual({ gtMs: T0, ltMs: T0 + 1000 + 20 * HOUR, beyondMs: far });
    expect((far - T0) * 2).toBeLessThanOrEqual((ask?.ltMs ?? 0) - T0);
  });

  it('with one row held or none, asks past the newest held row, without it, for a window', () => {
    expect(singleRowAsk(at(T0), [T0 + 5 * I], 288 * I)).toEqual({
      gtMs: T0 + 5 * I,
      ltMs: T0 + 5 * I + 1 + 288 * I,
    });
    expect(singleRowAsk(at(T0), [], 288 * I)).toEqual({ gtMs: T0, ltMs: T0 + 1 + 288 * I });
  });

  it('leaves the request to the usual walk when a proven span follows the cursor', () => {
    const cover = at(T0, { proven: [{ fromMs: T0 + 1, toMs: T0 + HOUR }] });
    expect(singleRowAsk(cover, [T0 + 2 * HOUR, T0 + 3 * HOUR], 288 * I)).toBeUndefined();
  });

  it('leaves the request to the usual walk when the span past the newest held row is in doubt already', () => {
    const from = T0 + 5 * I;
    const doubts = [{ span: { fromMs: from, toMs: from + HOUR }, size: 1, why: 'cut' }];
    expect(singleRowAsk(at(T0, { doubts }), [from], 288 * I)).toBeUndefined();
  });
});
