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
