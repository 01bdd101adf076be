import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/refresh/clock.js';
import { createRefresher, type ReadOutcome } from '../../src/refresh/refresher.js';

const DAY = 24 * 3600 * 1000;
const log = pino({ level: 'silent' });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the refresher on the system clock', () => {
  const reads = () => {
    let calls = 0;
    const outcome: { next: ReadOutcome<number> } = { next: { ok: true, value: 1 } };
    const read = async (): Promise<ReadOutcome<number>> => {
      calls++;
      return outcome.next;
    };
    return { read, outcome, calls: () => calls };
  };

  it('reads once in a second with a 30-day background interval, and again after 30 days', async () => {
    const up = reads();
    const r = createRefresher({
      read: up.read,
      policy: { minIntervalMs: 0, refreshIntervalMs: 30 * DAY, maxAgeMs: 31 * DAY, maxBackoffMs: 60_000 },
      log,
    });
    r.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(up.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(30 * DAY);
    expect(up.calls()).toBe(2);
    await r.stop();
  });

  it('sends nothing for the hour it honours of a Retry-After of a year', async () => {
    const up = reads();
    up.outcome.next = { ok: false, reason: 'rate_limited', message: 'slow down', retryAfterMs: 365 * DAY };
    const r = createRefresher({
      read: up.read,
      policy: { minIntervalMs: 0, refreshIntervalMs: 1000, maxAgeMs: 600_000, maxBackoffMs: 60_000 },
      log,
    });
    r.start();
    await vi.advanceTimersByTimeAsync(3600 * 1000 - 1000);
    expect(up.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(up.calls()).toBe(2);
    await r.stop();
  });
});

describe('systemClock', () => {
  it('tells wall-clock time and a monotonic time for durations', () => {
    // Date is faked in this file; the process's own clock is performance's.
    const wall = performance.timeOrigin + performance.now();
    expect(Math.abs(systemClock.now() - wall)).toBeLessThan(1000);
    const a = systemClock.monotonic();
    const b = systemClock.monotonic();
    expect(b).toBeGreaterThanOrEqual(a);
  });

  it('runs a timer after its delay, and not once cancelled', async () => {
    const fired: string[] = [];
    systemClock.setTimer(() => fired.push('kept'), 5);
    const cancel = systemClock.setTimer(() => fired.push('cancelled'), 5);
    cancel();
    await vi.advanceTimersByTimeAsync(4);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(['kept']);
  });
});
