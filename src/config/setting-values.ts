// How each kind of setting value is written and checked: durations, sizes, booleans, URLs, addresses, ids. Every
// parser turns a flag's or variable's text into the typed value, or an issue whose message becomes the one line
// after "invalid --flag (VARIABLE): ".
import { z } from 'zod';
import { formatDuration, parseByteSize, parseDurationMs } from './units.js';

/** The averaging intervals the readings endpoint is asked for, and the time between its rows at each: the one
 * interval table, read by the settings, the live readings, the backfill's walk and the demo. */
export const READINGS_INTERVAL_MS = {
  '5m': 5 * 60_000,
  '20m': 20 * 60_000,
  '1h': 3_600_000,
  '1d': 86_400_000,
} as const;
export type ReadingsInterval = keyof typeof READINGS_INTERVAL_MS;
export const READINGS_INTERVALS = Object.keys(READINGS_INTERVAL_MS) as [
  ReadingsInterval,
  ...ReadingsInterval[],
];

// JSON quoting keeps an error one line even when the value holds a newline.
const quote = (text: string): string => JSON.stringify(text);

/** A duration setting's least and greatest value, in milliseconds. */
export type DurationRange = readonly [min: number, max: number];

export const duration = ([min, max]: DurationRange) =>
  z.string().transform((text, ctx) => {
    const ms = parseDurationMs(text.trim());
    if (ms === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `${quote(text)} is not a duration such as 500ms, 30s, 5m or 1h`,
      });
      return z.NEVER;
    }
    if (ms < min) {
      ctx.addIssue({ code: 'custom', message: `must be at least ${formatDuration(min)}` });
      return z.NEVER;
    }
    if (ms > max) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${formatDuration(max)}` });
      return z.NEVER;
    }
    return ms;
  });

export const byteSize = z.string().transform((text, ctx) => {
  const bytes = parseByteSize(text);
  if (bytes === undefined || bytes < 1024) {
    ctx.addIssue({
      code: 'custom',
      message: `${quote(text)} is not a size of at least 1KiB such as 512KiB or 64MiB`,
    });
    return z.NEVER;
  }
  return bytes;
});

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off', ''];

export const boolText = z.string().transform((text, ctx) => {
  const word = text.trim().toLowerCase();
  if (!TRUE_WORDS.includes(word) && !FALSE_WORDS.includes(word)) {
    ctx.addIssue({
      code: 'custom',
      message: `${quote(text)} is not a boolean: true, false, 1, 0, yes, no, on or off`,
    });
    return z.NEVER;
  }
  return TRUE_WORDS.includes(word);
});

/** Exactly one of the given words (surrounding whitespace ignored); `what` names them in the error. */
export const oneOf = <const V extends readonly [string, ...string[]]>(values: V, what: string) =>
  z.string().transform((text, ctx): V[number] => {
    const found = values.find((v) => v === text.trim());
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message: `${quote(text)} is not ${what}: ${values.join(', ')}` });
      return z.NEVER;
    }
    return found;
  });

export const baseUrl = z.string().transform((text, ctx) => {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `${quote(text)} is not an absolute URL such as https://mycityair.ru`,
    });
    return z.NEVER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: 'must use http or https' });
    return z.NEVER;
  }
  if (url.username || url.password || url.search || url.hash) {
    ctx.addIssue({ code: 'custom', message: 'must not carry credentials, a query or a fragment' });
    return z.NEVER;
  }
  // Operators often paste the API path itself; accept it and keep only the base.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/harvester\/v2(\/posts)?$/i, '');
  return `${url.origin}${path}`;
});

export const listenAddress = z.string().transform((text, ctx) => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    ctx.addIssue({ code: 'custom', message: `${quote(text)} is not host:port, :port or [ipv6]:port` });
    return z.NEVER;
  }
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port };
});

export const integerBetween = (min: number, max: number) =>
  z.string().transform((text, ctx) => {
    const n = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
    if (!(n >= min && n <= max)) {
      ctx.addIssue({ code: 'custom', message: `${quote(text)} is not a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return n;
  });

// Ids are later put into request paths, so only plain digits get through; duplicates would mean duplicate requests.
export const stationIds = z.string().transform((text, ctx) => {
  const items = text.split(',').map((item) => item.trim());
  if (items.every((item) => item === '')) {
    ctx.addIssue({ code: 'custom', message: 'must list at least one station id, such as 101,102' });
    return z.NEVER;
  }
  const ids: number[] = [];
  for (const item of items) {
    const id = /^\d+$/.test(item) ? Number(item) : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      ctx.addIssue({
        code: 'custom',
        message: `${quote(item)} is not a station id (a positive whole number)`,
      });
      return z.NEVER;
    }
    ids.push(id);
  }
  return [...new Set(ids)];
});

export const telemetryPath = z
  .string()
  .regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must be a path starting with / (letters, digits, ._~-/)')
  .refine((p) => !['/', '/healthz', '/readyz'].includes(p), 'must not be /, /healthz or /readyz');
