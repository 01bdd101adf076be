// How late the event loop runs, between two scrapes: a timer every RESOLUTION_MS notes how much later than asked it
// fired, into a window of plain numbers that a scrape reads and starts again. prom-client's own family reads a
// native histogram whose mean and standard deviation walk every bucket (about 0.5 ms of each scrape, measured);
// here a scrape walks 240 counters. A JavaScript tick costs about twice a native one, so it ticks half as often:
// idle CPU stays near what prom-client's 10 ms sampler cost, and a block of B ms still shows as at least B - 20 ms.

export const RESOLUTION_MS = 20;

// Percentiles come from geometric buckets, 8 per doubling from 1 µs to about 18 minutes: within 9 % of the truth.
const BASE_MS = 0.001;
const PER_DOUBLING = 8;
const BUCKETS = 30 * PER_DOUBLING;

/** The delays seen since the window started, in milliseconds. */
export interface DelayWindow {
  count: number;
  sum: number;
  sumOfSquares: number;
  min: number;
  max: number;
  readonly buckets: Uint32Array;
}

/** What a scrape exports, in seconds; all 0 for a window that saw nothing. */
export interface DelaySummary {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stddev: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

export function emptyWindow(): DelayWindow {
  return { count: 0, sum: 0, sumOfSquares: 0, min: 0, max: 0, buckets: new Uint32Array(BUCKETS) };
}

export function resetWindow(w: DelayWindow): void {
  w.count = 0;
  w.sum = 0;
  w.sumOfSquares = 0;
  w.min = 0;
  w.max = 0;
  w.buckets.fill(0);
}

const bucketOf = (ms: number): number =>
  ms <= BASE_MS ? 0 : Math.min(BUCKETS - 1, Math.floor(Math.log2(ms / BASE_MS) * PER_DOUBLING));

const upperBoundOf = (bucket: number): number => BASE_MS * 2 ** ((bucket + 1) / PER_DOUBLING);

export function recordDelay(w: DelayWindow, ms: number): void {
  w.min = w.count === 0 ? ms : Math.min(w.min, ms);
  w.max = Math.max(w.max, ms);
  w.count++;
  w.sum += ms;
  w.sumOfSquares += ms * ms;
  w.buckets[bucketOf(ms)] = (w.buckets[bucketOf(ms)] ?? 0) + 1;
}

/** The smallest bucket bound that covers p percent of the delays, kept within the exact min and max. */
function percentile(w: DelayWindow, p: number): number {
  const rank = Math.ceil((p / 100) * w.count);
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    seen += w.buckets[i] ?? 0;
    if (seen >= rank) return Math.min(w.max, Math.max(w.min, upperBoundOf(i)));
  }
  return w.max;
}

export function summarize(w: DelayWindow): DelaySummary {
  if (w.count === 0) return { min: 0, max: 0, mean: 0, stddev: 0, p50: 0, p90: 0, p99: 0 };
  const mean = w.sum / w.count;
  const variance = Math.max(0, w.sumOfSquares / w.count - mean * mean);
  const s = (ms: number): number => ms / 1000;
  return {
    min: s(w.min),
    max: s(w.max),
    mean: s(mean),
    stddev: s(Math.sqrt(variance)),
    p50: s(percentile(w, 50)),
    p90: s(percentile(w, 90)),
    p99: s(percentile(w, 99)),
  };
}

// One event loop per process, so one sampler for every registry (tests build many), started by the first.
let sampler: { readonly window: DelayWindow; readonly timer: NodeJS.Timeout; lastTickMs: number } | undefined;

function tick(): void {
  if (sampler === undefined) return;
  const now = performance.now();
  recordDelay(sampler.window, Math.max(0, now - sampler.lastTickMs - RESOLUTION_MS));
  sampler.lastTickMs = now;
}

/**
 * Starts the sampler if it is not running, and answers the function a scrape calls: the delays since the previous
 * call, and a new window. A scrape with the timer overdue counts as its tick (and restarts it), so a scrape
 * answered right after the loop was blocked sees the block even if the timer has not had its turn yet.
 */
export function watchEventLoopDelay(): () => DelaySummary {
  sampler ??= {
    window: emptyWindow(),
    timer: setInterval(tick, RESOLUTION_MS).unref(),
    lastTickMs: performance.now(),
  };
  const s = sampler;
  return () => {
    if (performance.now() - s.lastTickMs > RESOLUTION_MS) {
      tick();
      s.timer.refresh();
    }
    const summary = summarize(s.window);
    resetWindow(s.window);
    return summary;
  };
}
