// Row dates: an ISO time with its offset, read to a UTC instant, and the rule for a row dated in the future.

/**
 * A row dated more than this ahead of the exporter's clock is not served. Station clocks drift, and an hourly
 * row may be stamped with the end of its hour by some hosts; five minutes covers plain drift and the exporter's
 * own NTP error, while a row further ahead would pin a reading (served as fresh, newest of all) for as long.
 */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

export const isFutureDated = (atMs: number, nowMs: number): boolean => atMs > nowMs + FUTURE_TOLERANCE_MS;

// Date and time with a separator T (or a space), seconds and fractions optional, and an offset: Z, ±HH:MM,
// ±HHMM or ±HH. A time without an offset is refused: its zone would be a guess.
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The UTC instant (ms) an ISO time names, offset applied, or undefined. Each part is range-checked, because
 * Date.UTC rolls 30 February over into March instead of refusing it.
 */
export function parseUtcDate(text: string): number | undefined {
  return plainUtcDate(text) ?? parseIsoDate(text);
}

function parseIsoDate(text: string): number | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const n = (i: number): number => Number(m[i] ?? '0');
  const [y, mo, d, h, mi, s, oh, om] = [n(1), n(2), n(3), n(4), n(5), n(6), n(10), n(11)] as const;
  if (h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return undefined;
  const ms = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(local);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  // 10:30+03:00 is 07:30 UTC: an offset east of Greenwich is subtracted.
  const offsetMs = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  return local - offsetMs;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The form nearly every row has, 2026-10-01T12:05:00Z, read without a match array or a Date: a history has
 * millions of them. Only a date that is valid in every part is read here; anything else, and every other form,
 * goes through parseIsoDate, which decides (years before 100 included, which Date.UTC would move to the 1900s).
 */
function plainUtcDate(text: string): number | undefined {
  if (text.length !== 20 || text.charCodeAt(19) !== 0x5a || text.charCodeAt(10) !== 0x54) return undefined;
  if (text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d) return undefined;
  if (text.charCodeAt(13) !== 0x3a || text.charCodeAt(16) !== 0x3a) return undefined;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const s = digits(text, 17, 2);
  // NaN (a character that is not a digit) fails every comparison below.
  if (!(y >= 100 && mo >= 1 && mo <= 12 && d >= 1 && h <= 23 && mi <= 59 && s <= 59)) return undefined;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (DAYS_IN_MONTH[mo - 1] as number) + (leap ? 1 : 0)) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** The number written by `length` ASCII digits from `start`, or NaN. */
function digits(text: string, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) {
    const c = text.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return Number.NaN;
    n = n * 10 + c;
  }
  return n;
}
