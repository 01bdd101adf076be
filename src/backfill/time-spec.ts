// How --from and --to are written: an RFC 3339 time with any offset, or a Prometheus duration before the start
// of the run ("30d", "36h"). Both become Unix milliseconds against one `now`, so a run that takes hours still
// means the range the user asked for when it started.
import { z } from 'zod';
import { parseDurationMs } from '../config/units.js';

/** A time as written: resolved against `now` later, so that --from and --to share one clock reading. */
export type TimeSpec =
  | { readonly kind: 'at'; readonly ms: number }
  | { readonly kind: 'ago'; readonly ms: number };

// RFC 3339: date, T (or a space, as in the RFC's note), time with optional fraction, and Z or ±hh:mm.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Unix ms of an RFC 3339 time, or undefined: every part is range-checked (Date.parse rolls 31 April over). */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const n = (i: number): number => Number(m[i] ?? '0');
  const [y, mo, d, h, mi, s] = [n(1), n(2), n(3), n(4), n(5), n(6)] as const;
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return undefined;
  const offsetMin = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (n(10) * 60 + n(11));
  if (n(10) > 23 || n(11) > 59) return undefined;
  const local = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(local).getUTCDate() !== d) return undefined;
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  return local + fraction - offsetMin * 60_000;
}

export const timeSpec = z.string().transform((text, ctx): TimeSpec => {
  const trimmed = text.trim();
  const at = parseRfc3339(trimmed);
  if (at !== undefined) return { kind: 'at', ms: at };
  const ago = parseDurationMs(trimmed);
  if (ago !== undefined && ago > 0) return { kind: 'ago', ms: ago };
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(text)} is neither an RFC 3339 time such as 2026-10-01T00:00:00Z nor a duration such as 30d or 36h`,
  });
  return z.NEVER;
});

export function resolveTime(spec: TimeSpec, nowMs: number): number {
  return spec.kind === 'at' ? spec.ms : nowMs - spec.ms;
}

/** UTC, seconds precision unless the time has milliseconds: what the summary and the retry command print. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}
