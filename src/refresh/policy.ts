// Pure rules of when a collector may call the API and what it may serve. The state is plain data (no rendered
// bytes, no callbacks), and every function takes the time as a number, so tests drive them without timers.
import type { FailureReason } from '../upstream/failure.js';

/** Validated data and when it arrived. */
export interface Fetched<T> {
  readonly data: T;
  readonly fetchedAtMs: number;
}

export interface Attempt {
  readonly atMs: number;
  readonly durationMs: number;
  /** undefined when the attempt succeeded. */
  readonly reason: FailureReason | undefined;
  /** Why it failed, one line, already scrubbed of the API key. */
  readonly message: string | undefined;
}

export interface CollectorState<T> {
  /** Last good data, however old; whether it may be served is servable()'s call. */
  readonly current: Fetched<T> | undefined;
  readonly lastAttempt: Attempt | undefined;
  readonly consecutiveFailures: number;
  /** No request before this time (Retry-After or backoff); 0 when free. */
  readonly notBeforeMs: number;
}

export interface RefreshPolicy {
  /** On demand: scrapes within this age of the last attempt reuse it. */
  readonly minIntervalMs: number;
  /** Above 0: refresh on a timer instead of on demand. */
  readonly refreshIntervalMs: number;
  readonly maxAgeMs: number;
  /** Ceiling of the backoff after failures; a Retry-After may still ask for longer. */
  readonly maxBackoffMs: number;
}

export interface FailureInfo {
  readonly reason: FailureReason;
  readonly message: string;
  readonly retryAfterMs?: number;
}

export function initialState<T>(): CollectorState<T> {
  return { current: undefined, lastAttempt: undefined, consecutiveFailures: 0, notBeforeMs: 0 };
}

const BACKOFF_BASE_MS = 1000;
/** A Retry-After of days would silence the exporter for days; an hour is the most we honour. */
export const RETRY_AFTER_CAP_MS = 60 * 60 * 1000;

/** Data that may be served: young enough for max-age. */
export function servable<T>(
  state: CollectorState<T>,
  nowMs: number,
  maxAgeMs: number,
): Fetched<T> | undefined {
  const c = state.current;
  return c !== undefined && nowMs - c.fetchedAtMs <= maxAgeMs ? c : undefined;
}

/**
 * An on-demand refresh is due when the last attempt, good or bad, is at least min-interval old and no wait is in
 * force. Counting failed attempts too keeps the request rate at one per min-interval whatever the upstream does.
 */
export function refreshDue(state: CollectorState<unknown>, nowMs: number, minIntervalMs: number): boolean {
  if (nowMs < state.notBeforeMs) return false;
  const last = state.lastAttempt;
  return last === undefined || nowMs - last.atMs >= minIntervalMs;
}

/**
 * When the background timer should fire next: refresh-interval after the last run started (so runs start every
 * interval, however long each takes, and one longer than the interval is followed at once), or later if a wait
 * is in force. `lastStartMs` defaults to now: the interval from the end of the run.
 */
export function nextRunInMs(
  state: CollectorState<unknown>,
  nowMs: number,
  refreshIntervalMs: number,
  lastStartMs: number = nowMs,
): number {
  return Math.max(0, lastStartMs + refreshIntervalMs - nowMs, state.notBeforeMs - nowMs);
}

/**
 * Exponential backoff with equal jitter: half of the step is fixed, half random, so HA pairs drift apart. The
 * ceiling bounds how long data stays away after the upstream recovers.
 */
export function backoffMs(consecutiveFailures: number, random: number, maxBackoffMs: number): number {
  if (consecutiveFailures <= 0) return 0;
  const step = Math.min(maxBackoffMs, BACKOFF_BASE_MS * 2 ** Math.min(consecutiveFailures - 1, 30));
  return Math.round(step / 2 + (step / 2) * random);
}

/**
 * A success clears every failure: nothing of the state before it survives. An answer can be good and still ask
 * for a pause (a Retry-After in the middle of a readings round): then no request goes out before it is over.
 */
export function afterSuccess<T>(current: Fetched<T>, durationMs: number, pauseMs = 0): CollectorState<T> {
  const pause = Math.min(pauseMs, RETRY_AFTER_CAP_MS);
  return {
    current,
    lastAttempt: { atMs: current.fetchedAtMs, durationMs, reason: undefined, message: undefined },
    consecutiveFailures: 0,
    notBeforeMs: pause > 0 ? current.fetchedAtMs + pause : 0,
  };
}

export function afterFailure<T>(
  state: CollectorState<T>,
  failure: FailureInfo,
  timing: { readonly atMs: number; readonly durationMs: number },
  random: number,
  maxBackoffMs: number,
): CollectorState<T> {
  const consecutiveFailures = state.consecutiveFailures + 1;
  const retryAfter = Math.min(failure.retryAfterMs ?? 0, RETRY_AFTER_CAP_MS);
  const wait = Math.max(retryAfter, backoffMs(consecutiveFailures, random, maxBackoffMs));
  return {
    current: state.current,
    lastAttempt: { ...timing, reason: failure.reason, message: failure.message },
    consecutiveFailures,
    notBeforeMs: timing.atMs + timing.durationMs + wait,
  };
}
