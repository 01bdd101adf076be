// The system clock's timers against Node's own rule, under vitest's fake timers (which copy it): a delay above
// 2^31-1 ms runs after 1 ms. Every wait the exporter arms goes through armTimer, so no setting and no upstream
// answer can turn a long wait into a busy loop.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { armTimer, TIMER_LIMIT_MS } from '../../src/refresh/clock.js';
import { createRefresher, type ReadOutcome } from '../../src/refresh/refresher.js';

const DAY = 24 * 3600 * 1000;
const log = pino({ level: 'silent' });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('armTimer', () => {
  it('keeps the copy of Node faithful: a bare setTimeout past the limit runs at once', () => {
    const fn = vi.fn();
    setTimeout(fn, 30 * DAY);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledOnce();
  });

  it.each([TIMER_LIMIT_MS + 1, 30 * DAY, 365 * DAY])('waits the whole %d ms, and runs once', (ms) => {
    const fn = vi.fn();
    armTimer(fn, ms);
    vi.advanceTimersByTime(ms - 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(10 * DAY);
    expect(fn).toHaveBeenCalledOnce();
  });

  it.each([Number.POSITIVE_INFINITY, Number.NaN])('never runs for %d', (ms) => {
    const fn = vi.fn();
    armTimer(fn, ms);
    vi.advanceTimersByTime(100 * DAY);
    expect(fn).not.toHaveBeenCalled();
  });

  it('runs a short or negative delay as setTimeout does', () => {
    const fn = vi.fn();
    armTimer(fn, 10);
    armTimer(fn, -5);
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(10);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('cancels a long wait at any of its steps', () => {
    const fn = vi.fn();
    const cancel = armTimer(fn, 60 * DAY);
    vi.advanceTimersByTime(TIMER_LIMIT_MS + 1000);
    cancel();
    vi.advanceTimersByTime(60 * DAY);
    expect(fn).not.toHaveBeenCalled();
  });
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
