// The refresher with a fake read and a fake clock: single flight, the scrape deadline, backoff, Retry-After,
// min-interval, max-age and recovery after an outage, all in simulated time.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { servable } from '../../src/refresh/policy.js';
import { createRefresher, type ReadOutcome, type Refresher } from '../../src/refresh/refresher.js';
import type { Failure } from '../../src/upstream/failure.js';
import { type FakeClock, fakeClock } from '../support/fake-clock.js';

const log = pino({ level: 'silent' });

/** An upstream in simulated time: each read takes delayMs and answers what `next` says at that moment. */
function fakeUpstream(clock: FakeClock) {
  const up = {
    delayMs: 100,
    calls: 0,
    startedAt: [] as number[],
    answer: (): ReadOutcome<number> => ({ ok: true, value: up.calls }),
  };
  const read = () =>
    new Promise<ReadOutcome<number>>((resolve) => {
      up.calls++;
      up.startedAt.push(clock.now());
      clock.setTimer(() => resolve(up.answer()), up.delayMs);
    });
  return { up, read };
}

const down = (retryAfterMs?: number): Failure => ({
  ok: false,
  reason: retryAfterMs ? 'rate_limited' : 'http_5xx',
  message: 'simulated',
  ...(retryAfterMs ? { retryAfterMs } : {}),
});

const POLICY = { minIntervalMs: 30_000, refreshIntervalMs: 0, maxAgeMs: 600_000, maxBackoffMs: 60_000 };

function setup(policy: Partial<typeof POLICY> = {}) {
  const clock = fakeClock();
  const { up, read } = fakeUpstream(clock);
  const r = createRefresher({ read, policy: { ...POLICY, ...policy }, log, clock, random: () => 1 });
  return { clock, up, r };
}

/** A scrape as the metrics route makes it: wait at most waitMs, then look at the state. */
async function scrape(clock: FakeClock, r: Refresher<number>, waitMs = 10_000) {
  const wait = r.refreshIfDue(waitMs);
  let result: string | undefined;
  void wait.then((w) => {
    result = w;
  });
  while (result === undefined) await clock.advance(10);
  return { wait: result, data: servable(r.state(), clock.now(), POLICY.maxAgeMs)?.data };
}

describe('on demand', () => {
  it('shares one read among concurrent scrapes and reuses it within min-interval', async () => {
    const { clock, up, r } = setup();
    const waits = Array.from({ length: 5 }, () => r.refreshIfDue(10_000));
    await clock.advance(200);
    expect(await Promise.all(waits)).toEqual(Array(5).fill('settled'));
    expect(up.calls).toBe(1);
    await clock.advance(29_000);
    expect((await scrape(clock, r)).data).toBe(1);
    expect(up.calls).toBe(1);
    await clock.advance(1000);
    await scrape(clock, r);
    expect(up.calls).toBe(2);
  });

  it('answers at the deadline while a slow read goes on, and serves its result to the next scrape', async () => {
    const { clock, up, r } = setup();
    up.delayMs = 2000;
    const first = await scrape(clock, r, 500);
    expect(first).toEqual({ wait: 'still-running', data: undefined });
    const second = await scrape(clock, r, 500);
    expect(second.wait).toBe('still-running');
    await clock.advance(2000);
    expect((await scrape(clock, r, 500)).data).toBe(1);
    expect(up.calls).toBe(1);
  });

  it('keeps the last good data through failures, with the reason and message in state', async () => {
    const { clock, up, r } = setup();
    await scrape(clock, r);
    up.answer = () => down();
    await clock.advance(30_000);
    const s = await scrape(clock, r);
    expect(s.data).toBe(1);
    expect(r.state().lastAttempt).toMatchObject({ reason: 'http_5xx', message: 'simulated' });
    expect(r.state().consecutiveFailures).toBe(1);
  });

  it('sends nothing before Retry-After is over, even when scraped every second', async () => {
    const { clock, up, r } = setup({ minIntervalMs: 0 });
    up.answer = () => down(120_000);
    await scrape(clock, r);
    up.answer = () => ({ ok: true, value: 7 });
    for (let t = 0; t < 118; t++) {
      await clock.advance(1000);
      await scrape(clock, r);
    }
    expect(up.calls).toBe(1);
    await clock.advance(3000);
    expect((await scrape(clock, r)).data).toBe(7);
    expect(up.calls).toBe(2);
  });

  it('stops serving data older than max-age', async () => {
    const { clock, up, r } = setup();
    await scrape(clock, r);
    up.answer = () => down();
    await clock.advance(POLICY.maxAgeMs);
    expect((await scrape(clock, r)).data).toBeUndefined();
    expect(r.state().current?.data).toBe(1);
  });
});

describe('recovery after an outage', () => {
  // The upstream is down for 20 minutes, scraped every 15 s; how long after it comes back is data served again?
  async function outage(policy: Partial<typeof POLICY>): Promise<number> {
    const { clock, up, r } = setup(policy);
    r.start();
    await clock.advance(1000);
    up.answer = () => down();
    const scrapeUntil = async (ms: number, stop: () => boolean) => {
      for (let t = 0; t < ms && !stop(); t += 15_000) {
        await clock.advance(15_000);
        await scrape(clock, r);
      }
    };
    await scrapeUntil(20 * 60_000, () => false);
    const recoveredAt = clock.now();
    up.answer = () => ({ ok: true, value: -1 });
    await scrapeUntil(30 * 60_000, () => r.state().current?.data === -1);
    await r.stop();
    const back = r.state().current;
    expect(back?.data).toBe(-1);
    return (back?.fetchedAtMs ?? Number.POSITIVE_INFINITY) - recoveredAt;
  }

  it.each([
    ['on demand, default max-backoff', { minIntervalMs: 30_000, maxBackoffMs: 60_000 }],
    ['on demand, min-interval above max-backoff', { minIntervalMs: 120_000, maxBackoffMs: 60_000 }],
    ['background every 10 s', { refreshIntervalMs: 10_000, maxBackoffMs: 60_000 }],
    ['background, max-backoff 5 minutes', { refreshIntervalMs: 10_000, maxBackoffMs: 300_000 }],
  ])('serves data again within max(min-interval, refresh-interval, max-backoff): %s', async (_, policy) => {
    const p = { ...POLICY, ...policy };
    const bound = Math.max(p.minIntervalMs, p.refreshIntervalMs, p.maxBackoffMs);
    // One scrape interval and one read on top: the first scrape after the bound triggers the read.
    expect(await outage(policy)).toBeLessThanOrEqual(bound + 15_000 + 100);
  });
});

describe('in the background', () => {
  it('refreshes on its timer, never on a scrape, and stops cleanly with a read under way', async () => {
    const { clock, up, r } = setup({ refreshIntervalMs: 10_000 });
    r.start();
    await clock.advance(100);
    expect(up.calls).toBe(1);
    expect(await r.refreshIfDue(1000)).toBe('settled');
    await clock.advance(10_000);
    expect(up.calls).toBe(2);
    await clock.advance(10_150);
    const stopped = r.stop();
    await clock.advance(100);
    await stopped;
    await clock.advance(60_000);
    expect(up.calls).toBe(3);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('starts a read every refresh-interval from the start of the last one, however long each takes', async () => {
    const { clock, up, r } = setup({ refreshIntervalMs: 10_000 });
    const t0 = clock.now();
    up.delayMs = 3000;
    r.start();
    await clock.advance(30_500);
    // A read longer than the interval is followed at once by the next.
    up.delayMs = 14_000;
    await clock.advance(40_000);
    const stopped = r.stop();
    await clock.advance(14_000);
    await stopped;
    expect(up.startedAt.map((t) => t - t0)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 54_000, 68_000]);
  });

  it('tells another collector when the first data has arrived, and not before', async () => {
    const { clock, up, r } = setup({ refreshIntervalMs: 10_000 });
    up.answer = () => down();
    let arrived = false;
    void r.firstData.then(() => {
      arrived = true;
    });
    r.start();
    await clock.advance(5000);
    expect(arrived).toBe(false);
    up.answer = () => ({ ok: true, value: 1 });
    await clock.advance(20_000);
    expect(arrived).toBe(true);
    await r.stop();
  });
});
