// The event-loop delay family: its arithmetic on known delays, and a blocked loop seen by the next scrape of the
// exporter's registry (what /metrics appends after the station series).
import { describe, expect, it } from 'vitest';
import { emptyWindow, recordDelay, resetWindow, summarize } from '../../src/exposition/event-loop-delay.js';
import { createExporterRegistry } from '../../src/exposition/exporter-registry.js';
import { sample } from '../support/http.js';

const STATS = ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'] as const;

describe('a window of delays', () => {
  it('says 0 for every statistic before any delay', () => {
    expect(summarize(emptyWindow())).toStrictEqual({
      min: 0,
      max: 0,
      mean: 0,
      stddev: 0,
      p50: 0,
      p90: 0,
      p99: 0,
    });
  });

  it('gives min, max, mean and standard deviation exactly, in seconds', () => {
    const w = emptyWindow();
    for (const ms of [2, 4, 4, 4, 5, 5, 7, 9]) recordDelay(w, ms);
    const s = summarize(w);
    expect([s.min, s.max, s.mean]).toStrictEqual([0.002, 0.009, 0.005]);
    expect(s.stddev).toBeCloseTo(0.002, 9);
  });

  it('gives percentiles within 9 % and never outside min and max', () => {
    const w = emptyWindow();
    for (let ms = 1; ms <= 1000; ms++) recordDelay(w, ms / 10);
    const s = summarize(w);
    for (const [got, want] of [
      [s.p50, 0.05],
      [s.p90, 0.09],
      [s.p99, 0.099],
    ] as const) {
      expect(got).toBeGreaterThanOrEqual(want);
      expect(got).toBeLessThanOrEqual(want * 1.09);
    }
    expect(s.p99).toBeLessThanOrEqual(s.max);
    const one = emptyWindow();
    recordDelay(one, 0.0001);
    expect(summarize(one).p50).toBe(summarize(one).min);
  });

  it('starts again from nothing after a reset', () => {
    const w = emptyWindow();
    recordDelay(w, 300);
    resetWindow(w);
    recordDelay(w, 1);
    expect(summarize(w).max).toBe(0.001);
  });
});

describe("the registry's nodejs_eventloop_lag family", () => {
  const block = (ms: number): void => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // Busy on purpose: the loop is blocked, as a long parse would block it.
    }
  };
  const scrape = async (registry: ReturnType<typeof createExporterRegistry>) => {
    const text = await registry.metrics();
    return Object.fromEntries(STATS.map((s) => [s, sample(text, `nodejs_eventloop_lag_${s}_seconds`)]));
  };

  it('shows a loop blocked for 200 ms in the next scrape, and not in the one after', async () => {
    const registry = createExporterRegistry({ version: '1', revision: 'abc1234', nodeVersion: 'v0' });
    await scrape(registry);
    await new Promise((r) => setTimeout(r, 50));
    block(200);
    const blocked = await scrape(registry);
    expect(blocked.max).toBeGreaterThanOrEqual(0.15);
    expect(blocked.mean).toBeGreaterThan(0);
    expect(blocked.stddev).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 100));
    const calm = await scrape(registry);
    // Under the blocked scrape's 0.15: a loaded machine's own delays may reach 0.1, the 200 ms never.
    expect(calm.max).toBeLessThan(0.15);
    for (const s of STATS) expect(calm[s], s).toBeGreaterThanOrEqual(0);
  });

  it('exports each of the seven once, and not the one-turn nodejs_eventloop_lag_seconds', async () => {
    const text = await createExporterRegistry({ version: '1', revision: 'a', nodeVersion: 'v0' }).metrics();
    for (const s of STATS) {
      expect(text.match(new RegExp(`^# TYPE nodejs_eventloop_lag_${s}_seconds gauge$`, 'gm'))).toHaveLength(
        1,
      );
    }
    expect(text).not.toMatch(/^nodejs_eventloop_lag_seconds /m);
  });
});
