// Rounding a converted reading to a number of significant digits, as Number(x.toPrecision(12)) does, without
// building a string: the backfill converts every field of millions of rows, and the string was a large part of
// its cost. Where the arithmetic cannot be shown to give the same number, the string is still used.

/** 10^0 .. 10^22: every one exactly representable, so a product or quotient by one is rounded only once. */
const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

// The arithmetic is used for magnitudes in [1e-6, 1e11): scaled by 10^s (0 ≤ s ≤ 18) into [1e11, 1e12), below
// 2^40, where one multiplication is off from the exact product by at most 2^-14 (half an ulp). Outside that
// magnitude, and within this distance of a tie, the string decides.
const MIN_MAGNITUDE = 1e-6;
const MAX_MAGNITUDE = 1e11;
const TIE_MARGIN = 1e-3;

/**
 * Number(x.toPrecision(digits)) for 1 ≤ digits ≤ 12, the same number for every x (NaN, ±0 and infinities
 * included). Why it is the same: with X the exact x·10^s in [10^(digits-1), 10^digits), toPrecision keeps the
 * integer n nearest to X (ties away from zero) and Number() reads n·10^-s back correctly rounded. Here q is X
 * rounded once, at most half an ulp (< 2^-13 below 2^40) from it, so Math.round(q) is n whenever q is not within
 * TIE_MARGIN of a half; and n / 10^s, both exact, is correctly rounded by IEEE division: the same double.
 */
export function roundToSignificant(x: number, digits: number): number {
  const a = Math.abs(x);
  if (!(a >= MIN_MAGNITUDE && a < MAX_MAGNITUDE) || digits < 1 || digits > 12)
    return Number(x.toPrecision(digits));
  const low = POWERS_OF_TEN[digits - 1] as number;
  const high = POWERS_OF_TEN[digits] as number;
  // log10 may be off by one next to a power of ten: the scaled value is checked and the scale moved once.
  let s = digits - 1 - Math.floor(Math.log10(a));
  let q = scaled(a, s);
  if (q < low) q = scaled(a, ++s);
  else if (q >= high) q = scaled(a, --s);
  const fraction = q - Math.floor(q);
  // Next to either end of the digits' span, or to a tie, toPrecision's own rule decides.
  if (!(q >= low + 1 && q < high - 1) || Math.abs(fraction - 0.5) < TIE_MARGIN || s < 0 || s > 22)
    return Number(x.toPrecision(digits));
  const rounded = Math.round(q) / (POWERS_OF_TEN[s] as number);
  return x < 0 ? -rounded : rounded;
}

const scaled = (a: number, s: number): number =>
  s >= 0 && s <= 22 ? a * (POWERS_OF_TEN[s] as number) : Number.NaN;
