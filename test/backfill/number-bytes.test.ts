// Sample values are written as bytes without a string; the bytes must be exactly what String() gives, for the
// numbers a backfill writes and for any other.
import { describe, expect, it } from 'vitest';
import { MAX_NUMBER_BYTES, writeNumber } from '../../src/backfill/number-bytes.js';
import { roundToSignificant } from '../../src/readings/precision.js';
import { seededRandom } from '../support/seeded-random.js';

const buffer = new Uint8Array(MAX_NUMBER_BYTES + 8);

function mismatches(values: Iterable<number>): string[] {
  const bad: string[] = [];
  for (const x of values) {
    buffer.fill(0x7e);
    const end = writeNumber(buffer, 3, x);
    const text = Buffer.from(buffer.subarray(3, end)).toString('latin1');
    const wrote = buffer[2] === 0x7e && buffer[end] === 0x7e && end - 3 <= MAX_NUMBER_BYTES;
    if ((text !== String(x) || !wrote) && bad.length < 5) bad.push(`${String(x)} written "${text}"`);
  }
  return bad;
}

describe('numbers written as bytes', () => {
  it('are what String() gives for readings as the conversion makes them, and timestamps', () => {
    const random = seededRandom(7);
    function* values(): Generator<number> {
      for (let i = 0; i < 80_000; i++) {
        const decimals = Math.floor(random() * 7);
        const sent = Math.round(random() * 10 ** (Math.floor(random() * 8) + decimals)) / 10 ** decimals;
        yield sent;
        yield -sent;
        for (const f of [1000, 0.01, 133.322, 100]) yield roundToSignificant(sent * f, 12);
        yield Math.round(1.7e12 + random() * 1e11) / 1000;
      }
    }
    expect(mismatches(values())).toEqual([]);
  });

  it('are what String() gives for any double, and at the edges of plain notation', () => {
    const random = seededRandom(8);
    function* values(): Generator<number> {
      for (let i = 0; i < 300_000; i++) {
        const x = (random() + random() * 2 ** -40) * 10 ** Math.floor(random() * 50 - 25);
        yield random() < 0.5 ? x : -x;
      }
      for (let e = -8; e <= 22; e++) for (const d of [-1, 0, 1]) yield 10 ** e * (1 + d * Number.EPSILON);
      yield* [0, -0, 1e-6, 9.99999e-7, 999_999_999_999_999, 1e15, 123_456_789_012_345.6, 0.1 + 0.2];
      yield* [
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        Number.MIN_VALUE,
        -Number.MAX_VALUE,
      ];
      yield* [16.330000000000002, 2 ** 53, 2 ** 53 + 2, 5e-324, 1e21, 1.5e300, 0.000001234];
    }
    expect(mismatches(values())).toEqual([]);
  });
});
