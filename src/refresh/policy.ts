// Pure rules of when the exporter may call the API and what it may serve. Every function takes the time as a
// number, so tests drive them without clocks or timers.
import type { StationList } from '../boundaries/stations.js';
import type { DeflateSegment } from '../metrics/gzip-splice.js';
import type { FailureReason } from '../upstream/failure.js';

export interface Snapshot {
  readonly list: StationList;
  readonly fetchedAtMs: number;
  /** The station families, rendered once when the snapshot is made and reused by every scrape. */
  readonly text: Buffer;
  /** The same text as a deflate segment, made once on first use (gzip scrapes). */
  readonly deflated: () => Promise<DeflateSegment>;
  readonly online: number;
  readonly offline: number;
}

export interface Attempt {
  readonly atMs: number;
  readonly durationMs: number;
  readonly reason: FailureReason | undefined;
}

export interface RefreshState {
  /** Last good data, however old; whether it may be served is servable()'s call. */
  readonly snapshot: Snapshot | undefined;
  readonly lastAttempt: Attempt | undefined;
  readonly consecutiveFailures: number;
  /** No request before this time (Retry-After or backoff); 0 when free. */
  readonly notBeforeMs: number;
}

export interface RefreshPolicy {
  readonly minIntervalMs: number;
  readonly maxAgeMs: number;
}

export const INITIAL_STATE: RefreshState = {
  snapshot: undefined,
  lastAttempt: undefined,
  consecutiveFailures: 0,
  notBeforeMs: 0,
};

const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 5 * 60 * 1000;
/** A Retry-After of days would silence the exporter for days; an hour is the most we honour. */
export const RETRY_AFTER_CAP_MS = 60 * 60 * 1000;

/** Data that may be served: young enough for max-age. */
export function servable(state: RefreshState, nowMs: number, policy: RefreshPolicy): Snapshot | undefined {
  const s = state.snapshot;
  return s !== undefined && nowMs - s.fetchedAtMs <= policy.maxAgeMs ? s : undefined;
}

/**
 * An on-demand refresh is due when the last attempt, good or bad, is at least min-interval old and no wait is in
 * force. Counting failed attempts too keeps the request rate at one per min-interval whatever the upstream does.
 */
export function refreshDue(state: RefreshState, nowMs: number, policy: RefreshPolicy): boolean {
  if (nowMs < state.notBeforeMs) return false;
  const last = state.lastAttempt;
  return last === undefined || nowMs - last.atMs >= policy.minIntervalMs;
}

/** Exponential backoff with equal jitter: half of the step is fixed, half random, so HA pairs drift apart. */
export function backoffMs(consecutiveFailures: number, random: number): number {
  if (consecutiveFailures <= 0) return 0;
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(consecutiveFailures - 1, 30));
  return Math.round(step / 2 + (step / 2) * random);
}

export function afterSuccess(state: RefreshState, snapshot: Snapshot, durationMs: number): RefreshState {
  return {
    ...state,
    snapshot,
    lastAttempt: { atMs: snapshot.fetchedAtMs, durationMs, reason: undefined },
    consecutiveFailures: 0,
    notBeforeMs: 0,
  };
}

export function afterFailure(
  state: RefreshState,
  failure: { readonly reason: FailureReason; readonly retryAfterMs?: number },
  atMs: number,
  durationMs: number,
  random: number,
): RefreshState {
  const consecutiveFailures = state.consecutiveFailures + 1;
  const retryAfter = Math.min(failure.retryAfterMs ?? 0, RETRY_AFTER_CAP_MS);
  const wait = Math.max(retryAfter, backoffMs(consecutiveFailures, random));
  return {
    ...state,
    lastAttempt: { atMs, durationMs, reason: failure.reason },
    consecutiveFailures,
    notBeforeMs: atMs + durationMs + wait,
  };
}
