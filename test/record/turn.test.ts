// Live readings first: how long a record request waits, for each state of the readings and of the shared pause,
// and the wait itself in steps of at most a second that end as soon as the way is clear.
import { describe, expect, it } from 'vitest';
import type { CollectorHealth } from '../../src/collector/contract.js';
import { liveFirst, waitBeforeRequest } from '../../src/record/turn.js';

type Health = Pick<CollectorHealth, 'inFlight' | 'lastAttempt' | 'backoffUntilMs'>;

const NOW = Date.UTC(2026, 10, 27, 12);
const M5 = 300_000;
const REQUEST = 30_000;
const ran = (agoMs: number, durationMs = 5_000): Health => ({
  inFlight: false,
  backoffUntilMs: 0,
  lastAttempt: { atMs: NOW - agoMs, durationMs, reason: undefined, message: undefined },
});

describe('how long a record request waits', () => {
  it.each<[string, Health, number, number, number]>([
    // what, readings' health, readings interval, the shared pause's end, expected wait
    ['goes now: the next readings round is minutes off', ran(60_000), M5, 0, 0],
    ['waits out a pause CityAir asked for', ran(60_000), M5, NOW + 60_000, 60_000],
    [
      'waits out the readings’ own backoff when longer',
      { ...ran(60_000), backoffUntilMs: NOW + 90_000 },
      M5,
      NOW + 60_000,
      90_000,
    ],
    ['a pause already over holds nothing', ran(60_000), M5, NOW - 1, 0],
    ['waits while a readings round is under way', { ...ran(60_000), inFlight: true }, M5, 0, 100],
    [
      'waits for the first readings round',
      { inFlight: false, backoffUntilMs: 0, lastAttempt: undefined },
      M5,
      0,
      100,
    ],
    ['waits past a readings round due before the request could end', ran(M5 - 10_000), M5, 0, 10_100],
    ['goes once the readings round is due (it is under way or about to be)', ran(M5), M5, 0, 0],
    ['goes when the next round is just out of a request’s reach', ran(M5 - REQUEST), M5, 0, 0],
    ['goes between rounds that leave no room for two requests', ran(60_000 - 5_000, 10_000), 60_000, 0, 0],
  ])('%s', (_what, health, intervalMs, untilMs, wait) => {
    expect(waitBeforeRequest(health, intervalMs, { untilMs }, REQUEST, NOW)).toBe(wait);
  });
});

describe('liveFirst', () => {
  it('sleeps in steps of at most a second until the pause is over, then lets the request go', async () => {
    let now = NOW;
    const slept: number[] = [];
    const turn = liveFirst({
      readings: () => ran(60_000),
      readingsIntervalMs: M5,
      gate: { untilMs: NOW + 2_500 },
      requestMs: REQUEST,
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    });
    await turn();
    expect(slept).toEqual([1_000, 1_000, 500]);
    expect(now).toBe(NOW + 2_500);
  });

  it('waits for a readings round under way to end, asking its health again each time', async () => {
    let now = NOW;
    let inFlight = true;
    let asked = 0;
    const turn = liveFirst({
      readings: () => {
        asked++;
        return { ...ran(60_000), inFlight };
      },
      readingsIntervalMs: M5,
      gate: { untilMs: 0 },
      requestMs: REQUEST,
      now: () => now,
      sleep: async (ms) => {
        now += ms;
        if (now >= NOW + 300) inFlight = false;
      },
    });
    await turn();
    expect(now).toBe(NOW + 300);
    expect(asked).toBe(4);
  });

  it('does not sleep when the way is clear', async () => {
    const slept: number[] = [];
    await liveFirst({
      readings: () => ran(60_000),
      readingsIntervalMs: M5,
      gate: { untilMs: 0 },
      requestMs: REQUEST,
      now: () => NOW,
      sleep: async (ms) => void slept.push(ms),
    })();
    expect(slept).toEqual([]);
  });
});
