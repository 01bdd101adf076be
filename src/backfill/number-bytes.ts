// A sample's value as the ASCII bytes String(value) would give, written straight into the output buffer: a
// backfill writes a hundred million of them, and a string for each was the largest part of its garbage.

/** The longest text String() gives for a number ("-2.2250738585072014e-308"), with room to spare. */
export const MAX_NUMBER_BYTES = 32;

const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Below 10^15 a decimal of the number's own digits is more than 4 ulps from any other double: see below. */
const MAX_DIGITS_VALUE = 1e15;
const MIN_PLAIN = 1e-6;
const ZERO = 0x30;
const MINUS = 0x2d;
const POINT = 0x2e;

/**
 * Writes String(x) as bytes at `at` (at least MAX_NUMBER_BYTES free) and returns the position after it.
 *
 * Why it is String(x): String() writes the fewest significant digits that read back as x, in plain decimals for
 * 1e-6 ≤ |x| < 1e21. Here the fewest decimal places k with m = round(|x|·10^k) and m / 10^k === |x| are searched
 * (that quotient is correctly rounded, so it is exactly "m·10^-k reads back as x"). While m < 10^15, 10^-k is
 * more than 4 ulps of x, so no other decimal of k places reads back as x, and round() finds it whenever one
 * exists; the fewest places are then the fewest digits. Anything else (more digits, tiny or huge magnitudes,
 * NaN, infinities) is written from String() itself.
 */
export function writeNumber(bytes: Uint8Array, at: number, x: number): number {
  if (x === 0) {
    bytes[at] = ZERO;
    return at + 1;
  }
  const a = Math.abs(x);
  if (a >= MIN_PLAIN && a < MAX_DIGITS_VALUE) {
    for (let k = 0; k <= 22; k++) {
      const p = POWERS_OF_TEN[k] as number;
      const m = Math.round(a * p);
      if (m >= MAX_DIGITS_VALUE) break;
      if (m / p === a) {
        if (x < 0) bytes[at++] = MINUS;
        return writeDecimal(bytes, at, m, k);
      }
    }
  }
  return writeAscii(bytes, at, String(x));
}

/** m·10^-k in plain decimals: the integer part (at least "0"), then k places if k > 0. */
function writeDecimal(bytes: Uint8Array, at: number, m: number, k: number): number {
  let digits = 1;
  while (digits < 16 && m >= (POWERS_OF_TEN[digits] as number)) digits++;
  const width = Math.max(digits, k + 1);
  const end = at + width + (k > 0 ? 1 : 0);
  let pos = end;
  let rest = m;
  for (let i = 0; i < width; i++) {
    if (i === k && k > 0) bytes[--pos] = POINT;
    const q = Math.floor(rest / 10);
    bytes[--pos] = ZERO + (rest - q * 10);
    rest = q;
  }
  return end;
}

/** An ASCII string (what String() of a number, or a timestamp, is made of). */
export function writeAscii(bytes: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
  return at;
}
