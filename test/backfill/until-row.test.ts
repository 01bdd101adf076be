// When the walk asks again up to the second before a row read (until-row.ts), and when it does not.
import { describe, expect, it } from 'vitest';
import { untilRowAsk } from '../../src/backfill/until-row.js';

const I = 300_000;
const T0 = Date.UTC(2026, 9, 1);
const TO = T0 + 1000 * I;
const known = T0 + 20 * I;
const upTo = { gtMs: T0 - I - 1, ltMs: known + 1, knownMs: known };
const shape = (times: number[], size = times.length) => ({ times, size, sentLtMs: known + 1000 });

describe('asking again up to the second before a row read', () => {
  it('after an answer of that row and none before it: up to the last whole second before it', () => {
    expect(untilRowAsk(upTo, shape([known]), TO)).toEqual({
      gtMs: upTo.gtMs,
      ltMs: known - 1000,
      untilMs: known,
    });
    // Rows after it (date__lt read later) change nothing.
    expect(untilRowAsk(upTo, shape([known, known + I]), TO)?.untilMs).toBe(known);
  });

  it('a row not on a whole second: up to the whole second before it', () => {
    const at = known + 500;
    expect(untilRowAsk({ ...upTo, ltMs: at + 1, knownMs: at }, shape([at]), TO)?.ltMs).toBe(known);
  });

  it('a row past --to: up to --to only', () => {
    const past = TO + 7 * I;
    expect(untilRowAsk({ ...upTo, ltMs: past + 1, knownMs: past }, shape([past]), TO)).toEqual({
      gtMs: upTo.gtMs,
      ltMs: TO,
      untilMs: TO,
    });
  });

  it('none when that answer held a new row, missed the row, had rejected rows, or was anchored', () => {
    expect(untilRowAsk(upTo, shape([known - I, known]), TO)).toBeUndefined();
    expect(untilRowAsk(upTo, shape([]), TO)).toBeUndefined();
    expect(untilRowAsk(upTo, shape([known], 2), TO)).toBeUndefined();
    expect(untilRowAsk({ ...upTo, anchorMs: T0 }, shape([known]), TO)).toBeUndefined();
  });

  it('none when a whole minute lies between the row and the date__lt sent: a host rounding down gave it too', () => {
    const at = known + 59_000;
    expect(untilRowAsk({ ...upTo, ltMs: at + 1, knownMs: at }, shape([at]), TO)).toBeUndefined();
  });
});
