/** Why a refresh failed: the `reason` label of cityair_upstream_request_failures_total. */
export const FAILURE_REASONS = [
  'auth',
  'rate_limited',
  'http_4xx',
  'http_5xx',
  'timeout',
  'network',
  'invalid_json',
  'invalid_payload',
] as const;

export type FailureReason = (typeof FAILURE_REASONS)[number];

export interface Failure {
  readonly ok: false;
  readonly reason: FailureReason;
  /** One line for the log; never holds the API key. */
  readonly message: string;
  /** From Retry-After on 429 and 503, in milliseconds. */
  readonly retryAfterMs?: number;
}

/**
 * The one success-or-failure shape, from the parser through the exchange to the collector. `bytes` (the body's
 * size, for log lines) and `retryAfterMs` (a pause the upstream asked for although the answer was good) ride along
 * where the layer that knows them adds them.
 */
export type Result<T> =
  | { readonly ok: true; readonly value: T; readonly bytes?: number; readonly retryAfterMs?: number }
  | Failure;

export function failure(reason: FailureReason, message: string, retryAfterMs?: number): Failure {
  return retryAfterMs === undefined
    ? { ok: false, reason, message }
    : { ok: false, reason, message, retryAfterMs };
}

export function reasonForStatus(status: number): FailureReason {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'http_5xx';
  if (status >= 400) return 'http_4xx';
  // 1xx and 3xx: undici follows no redirect (it would carry the key to another host); the answer is not a list.
  return 'invalid_payload';
}

/** Retry-After is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
