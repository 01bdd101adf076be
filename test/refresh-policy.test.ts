import { describe, expect, it } from 'vitest';
import type { StationList } from '../src/boundaries/stations.js';
import {
  afterFailure,
  afterSuccess,
  backoffMs,
  INITIAL_STATE,
  RETRY_AFTER_CAP_MS,
  refreshDue,
  servable,
} from '../src/refresh/policy.js';
import { makeSnapshot } from '../src/refresh/snapshot.js';

const policy = { minIntervalMs: 30_000, maxAgeMs: 600_000 };
const list: StationList = { stations: [], rejected: { invalid: 0, duplicate: 0 }, problems: [] };

describe('when the exporter may call the API', () => {
  it('refreshes at once when it never tried, then not again within min-interval', () => {
    expect(refreshDue(INITIAL_STATE, 0, policy)).toBe(true);
    const s = afterSuccess(INITIAL_STATE, makeSnapshot(list, 1000), 50);
    expect(refreshDue(s, 1000 + 29_999, policy)).toBe(false);
    expect(refreshDue(s, 1000 + 30_000, policy)).toBe(true);
  });

  it('counts a failed attempt towards min-interval too, so a failing API is not hammered', () => {
    const s = afterFailure(INITIAL_STATE, { reason: 'http_5xx' }, 0, 10, 0);
    expect(refreshDue(s, 29_000, policy)).toBe(false);
  });

  it('honours Retry-After beyond min-interval, capped at an hour', () => {
    const s = afterFailure(INITIAL_STATE, { reason: 'rate_limited', retryAfterMs: 120_000 }, 0, 0, 0);
    expect(refreshDue(s, 60_000, policy)).toBe(false);
    expect(refreshDue(s, 120_000, policy)).toBe(true);
    const days = afterFailure(INITIAL_STATE, { reason: 'rate_limited', retryAfterMs: 86_400_000 }, 0, 0, 0);
    expect(days.notBeforeMs).toBe(RETRY_AFTER_CAP_MS);
  });

  it('backs off exponentially with jitter after consecutive failures, up to five minutes', () => {
    expect(backoffMs(1, 0)).toBe(500);
    expect(backoffMs(1, 1)).toBe(1000);
    expect(backoffMs(4, 1)).toBe(8000);
    expect(backoffMs(4, 0)).toBe(4000);
    expect(backoffMs(50, 1)).toBe(300_000);
    let s = INITIAL_STATE;
    for (let i = 0; i < 12; i++) s = afterFailure(s, { reason: 'timeout' }, 0, 0, 1);
    expect(s.consecutiveFailures).toBe(12);
    expect(s.notBeforeMs).toBe(300_000);
  });

  it('clears the backoff after a success', () => {
    let s = afterFailure(INITIAL_STATE, { reason: 'network' }, 0, 0, 1);
    s = afterFailure(s, { reason: 'network' }, 1000, 0, 1);
    s = afterSuccess(s, makeSnapshot(list, 5000), 1);
    expect(s.consecutiveFailures).toBe(0);
    expect(s.notBeforeMs).toBe(0);
    expect(s.lastAttempt?.reason).toBeUndefined();
  });
});

describe('what may be served', () => {
  it('serves data up to max-age and nothing after, but keeps it in state', () => {
    const s = afterSuccess(INITIAL_STATE, makeSnapshot(list, 0), 1);
    expect(servable(s, 600_000, policy)).toBeDefined();
    expect(servable(s, 600_001, policy)).toBeUndefined();
    const failedLater = afterFailure(s, { reason: 'auth' }, 700_000, 1, 0);
    expect(failedLater.snapshot).toBe(s.snapshot);
  });
});
