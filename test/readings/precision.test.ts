// The conversion rounds without a string; these hold it to the very numbers the string gives, over values of
// every kind a reading can take and the awkward ones (ties, powers of ten, the ends of the arithmetic's span).
import { describe, expect, it } from 'vitest';
import { roundToSignificant } from '../../src/readings/precision.js';
import { convertWithin } from '../../src/readings/ranges.js';
import { seededRandom } from '../support/seeded-random.js';

const viaString = (x: number, digits: number): number => Number(x.toPrecision(digits));

function mismatches(values: Iterable<number>, digits = 12): string[] {
  const bad: string[] = [];
  for (const x of values) {
    const got = roundToSignificant(x, digits);
    if (!Object.is(got, viaString(x, digits)) && bad.length < 5)
      bad.push(`${x} → ${got}, not ${viaString(x, digits)}`);
  }
  return bad;
}

// The factors the unit table multiplies by (mg, ng, g per m³; %; hPa, kPa, mbar, mm Hg).
const FACTORS = [1000, 0.001, 1e6, 0.01, 100, 1000, 133.322];

describe('rounding to 12 significant digits without a string', () => {
  it('gives what Number(x.toPrecision(12)) gives for sensor values of up to 6 decimals times every factor', () => {
    const random = seededRandom(1);
    function* values(): Generator<number> {
      for (let i = 0; i < 150_000; i++) {
        const decimals = Math.floor(random() * 7);
        const magnitude = 10 ** Math.floor(random() * 9 - 3);
        const sent = Math.round(random() * magnitude * 10 ** decimals) / 10 ** decimals;
        for (const f of FACTORS) yield sent * f;
        yield -sent * 133.322;
      }
    }
    expect(mismatches(values())).toEqual([]);
  });

  it('gives the same for arbitrary doubles of every magnitude and sign', () => {
    const random = seededRandom(2);
    function* values(): Generator<number> {
      for (let i = 0; i < 400_000; i++) {
        const x = (random() + random() * 2 ** -30) * 10 ** Math.floor(random() * 40 - 20);
        yield random() < 0.5 ? x : -x;
      }
    }
    expect(mismatches(values())).toEqual([]);
  });

  it('gives the same next to ties, powers of ten and the ends of its span', () => {
    function* values(): Generator<number> {
      for (let e = -8; e <= 13; e++) {
        const p = 10 ** e;
        for (const d of [-2, -1, 0, 1, 2]) {
          yield p + d * p * Number.EPSILON;
          yield -(p + d * p * Number.EPSILON);
        }
        // 13 digits ending in 5: an exact tie where the binary value allows one, and the doubles either side.
        const tie = (123_456_789_012 + 0.5) * 10 ** (e - 11);
        for (const d of [-1, 0, 1]) yield tie * (1 + d * Number.EPSILON);
        yield 999_999_999_999.5 * 10 ** (e - 11);
        yield 99_999_999_999.95 * 10 ** (e - 11);
      }
      yield* [123_456_789_012.5, 1_234_567.5, 0.5, 2.5, -2.5, 1e-6, 9.99999e-7, 1e11, 99_999_999_999.99];
      yield* [0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MIN_VALUE];
      yield* [Number.MAX_VALUE, 16.330000000000002, 0.1 + 0.2, 746.3 * 133.322];
    }
    expect(mismatches(values())).toEqual([]);
  });

  it('gives the same at fewer digits too', () => {
    const random = seededRandom(3);
    for (const digits of [1, 3, 6, 9, 11]) {
      const values = Array.from({ length: 50_000 }, () => (random() - 0.5) * 10 ** (random() * 20 - 8));
      expect(mismatches(values, digits), `${digits} digits`).toEqual([]);
    }
  });

  it('leaves the conversion as a person writes it', () => {
    const any = { min: -Infinity, max: Infinity };
    expect(convertWithin(0.01633, 1000, any)).toBe(16.33);
    expect(convertWithin(746.3, 133.322, any)).toBe(99_498.2086);
    expect(convertWithin(81, 0.01, any)).toBe(0.81);
  });
});
