import { describe, expect, it } from 'vitest';
import { healthOf } from '../../src/collector/contract.js';
import type { CollectorState } from '../../src/refresh/policy.js';

describe('healthOf', () => {
  it('tells a collector’s health from its state: last success, last attempt, failures and backoff', () => {
    const lastAttempt = { atMs: 2000, durationMs: 150, reason: 'timeout' as const, message: 'slow' };
    const state: CollectorState<unknown> = {
      current: { data: {}, fetchedAtMs: 1000 },
      lastAttempt,
      consecutiveFailures: 2,
      notBeforeMs: 9000,
    };
    expect(healthOf('station list', state, true, false)).toEqual({
      name: 'station list',
      lastSuccessMs: 1000,
      lastAttempt,
      consecutiveFailures: 2,
      backoffUntilMs: 9000,
      serving: true,
      inFlight: false,
    });
  });

  it('has no last success before the first good refresh', () => {
    const state: CollectorState<unknown> = {
      current: undefined,
      lastAttempt: undefined,
      consecutiveFailures: 0,
      notBeforeMs: 0,
    };
    expect(healthOf('readings', state, false, true)).toMatchObject({
      lastSuccessMs: undefined,
      lastAttempt: undefined,
      serving: false,
      inFlight: true,
    });
  });
});
