import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  afterSuccess,
  backoffMs,
  type CollectorState,
  initialState,
  nextRunInMs,
  RETRY_AFTER_CAP_MS,
  refreshDue,
  servable,
} from '../../src/refresh/policy.js';

const MIN_INTERVAL = 30_000;
const MAX_BACKOFF = 60_000;
const fresh = (): CollectorState<string> => initialState<string>();
const fail = (s: CollectorState<string>, atMs: number, retryAfterMs?: number, random = 0) =>
  afterFailure(
    s,
    {
      reason: retryAfterMs ? 'rate_limited' : 'http_5xx',
      message: 'HTTP 503',
      ...(retryAfterMs ? { retryAfterMs } : {}),
    },
    { atMs, durationMs: 0 },
    random,
    MAX_BACKOFF,
  );

describe('when the exporter may call the API', () => {
  it('refreshes at once when it never tried, then not again within min-interval', () => {
    expect(refreshDue(fresh(), 0, MIN_INTERVAL)).toBe(true);
    const s = afterSuccess({ data: 'x', fetchedAtMs: 1000 }, 50);
    expect(refreshDue(s, 1000 + 29_999, MIN_INTERVAL)).toBe(false);
    expect(refreshDue(s, 1000 + 30_000, MIN_INTERVAL)).toBe(true);
  });

  it('counts a failed attempt towards min-interval too, so a failing API is not hammered', () => {
    expect(refreshDue(fail(fresh(), 0), 29_000, MIN_INTERVAL)).toBe(false);
  });

  it('honours Retry-After beyond min-interval and beyond max-backoff, capped at an hour', () => {
    const s = fail(fresh(), 0, 120_000);
    expect(refreshDue(s, 119_999, MIN_INTERVAL)).toBe(false);
    expect(refreshDue(s, 120_000, MIN_INTERVAL)).toBe(true);
    expect(fail(fresh(), 0, 86_400_000).notBeforeMs).toBe(RETRY_AFTER_CAP_MS);
  });

  it('backs off exponentially with jitter after consecutive failures, never beyond max-backoff', () => {
    expect(backoffMs(1, 0, MAX_BACKOFF)).toBe(500);
    expect(backoffMs(1, 1, MAX_BACKOFF)).toBe(1000);
    expect(backoffMs(4, 0, MAX_BACKOFF)).toBe(4000);
    expect(backoffMs(4, 1, MAX_BACKOFF)).toBe(8000);
    expect(backoffMs(50, 1, MAX_BACKOFF)).toBe(60_000);
    expect(backoffMs(50, 1, 300_000)).toBe(300_000);
    let s = fresh();
    for (let i = 0; i < 12; i++) s = fail(s, 0, undefined, 1);
    expect(s.consecutiveFailures).toBe(12);
    expect(s.notBeforeMs).toBe(MAX_BACKOFF);
  });

  it('keeps the failure reason and message, and clears them and the backoff after a success', () => {
    let s = fail(fail(fresh(), 0), 1000);
    expect(s.lastAttempt).toMatchObject({ reason: 'http_5xx', message: 'HTTP 503' });
    s = afterSuccess({ data: 'x', fetchedAtMs: 5000 }, 1);
    expect(s.consecutiveFailures).toBe(0);
    expect(s.notBeforeMs).toBe(0);
    expect(s.lastAttempt).toMatchObject({ reason: undefined, message: undefined });
  });

  it('runs the background timer at its interval, or later while a wait is in force', () => {
    expect(nextRunInMs(fresh(), 0, 10_000)).toBe(10_000);
    expect(nextRunInMs(fail(fresh(), 0, 120_000), 0, 10_000)).toBe(120_000);
  });

  it('counts the interval from the start of the last run, and runs at once when a run outlasted it', () => {
    expect(nextRunInMs(fresh(), 3000, 10_000, 0)).toBe(7000);
    expect(nextRunInMs(fresh(), 12_000, 10_000, 0)).toBe(0);
    expect(nextRunInMs(fail(fresh(), 3000, 120_000), 3000, 10_000, 0)).toBeGreaterThan(7000);
  });
});

describe('what may be served', () => {
  it('serves data up to max-age and nothing after, but keeps it in state through failures', () => {
    const s = afterSuccess({ data: 'x', fetchedAtMs: 0 }, 1);
    expect(servable(s, 600_000, 600_000)?.data).toBe('x');
    expect(servable(s, 600_001, 600_000)).toBeUndefined();
    expect(fail(s, 700_000).current).toBe(s.current);
  });
});
