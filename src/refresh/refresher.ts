// Runs a collector's upstream read at most once at a time, on demand or on a timer, and keeps its data-only
// state: the last good data whatever the upstream answers, and when the next request may go out.
import type { Logger } from 'pino';
import type { Result } from '../upstream/failure.js';
import { type Clock, systemClock } from './clock.js';
import {
  afterFailure,
  afterSuccess,
  type CollectorState,
  initialState,
  nextRunInMs,
  type RefreshPolicy,
  refreshDue,
} from './policy.js';

/**
 * A read's answer. `bytes` (the body size) is for log lines only and stays out of the state; `retryAfterMs` is a
 * pause the upstream asked for even though the read brought data.
 */
export type ReadOutcome<T> = Result<T>;

/** The upstream read as a function of the current state: tests hand in a fake one and need no network. */
export type Read<T> = (state: CollectorState<T>) => Promise<ReadOutcome<T>>;

export interface RefresherOptions<T> {
  readonly read: Read<T>;
  readonly policy: RefreshPolicy;
  readonly log: Logger;
  readonly clock?: Clock;
  readonly random?: () => number;
  /** Called after every attempt with the state before and after it: the collector's log lines and counters. */
  readonly onAttempt?: (before: CollectorState<T>, after: CollectorState<T>, outcome: ReadOutcome<T>) => void;
}

/** How a scrape's wait for an on-demand refresh ended. */
export type RefreshWait = 'settled' | 'still-running';

export interface Refresher<T> {
  readonly state: () => CollectorState<T>;
  /**
   * On demand: refreshes if due and waits for it at most waitMs; never throws. 'still-running' means the wait
   * ended first: the refresh goes on, and its result serves the next scrape. A background refresher settles at once.
   */
  readonly refreshIfDue: (waitMs: number) => Promise<RefreshWait>;
  /** Starts the timer when refresh-interval > 0, else one refresh so that readiness needs no scrape. */
  readonly start: () => void;
  /** Stops the timer and waits for a request under way; a start() after it does nothing. */
  readonly stop: () => Promise<void>;
  /** Resolves at the first successful read: what another collector that needs this data waits for. */
  readonly firstData: Promise<void>;
  /** A read is under way. */
  readonly inFlight: () => boolean;
}

export function createRefresher<T>(options: RefresherOptions<T>): Refresher<T> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const { policy, log } = options;
  const background = policy.refreshIntervalMs > 0;
  let state = initialState<T>();
  let inflight: Promise<void> | undefined;
  let cancelTimer: (() => void) | undefined;
  let stopped = false;
  let markFirstData: () => void = () => undefined;
  const firstData = new Promise<void>((resolve) => {
    markFirstData = resolve;
  });

  const attempt = async (): Promise<void> => {
    const atMs = clock.now();
    const t0 = clock.monotonic();
    const outcome = await options.read(state);
    const durationMs = clock.monotonic() - t0;
    const before = state;
    state = outcome.ok
      ? afterSuccess({ data: outcome.value, fetchedAtMs: clock.now() }, durationMs, outcome.retryAfterMs)
      : afterFailure(state, outcome, { atMs, durationMs }, random(), policy.maxBackoffMs);
    if (outcome.ok) markFirstData();
    options.onAttempt?.(before, state, outcome);
  };

  const refreshNow = (): Promise<void> => {
    inflight ??= attempt()
      .catch((error: unknown) => log.error({ err: error }, 'unexpected error while refreshing'))
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  // Background runs start every refresh-interval, counted from the start of the previous run (on the monotonic
  // clock), not from its end.
  const runAndSchedule = (): void => {
    const startedAt = clock.monotonic();
    void refreshNow().then(() => schedule(startedAt));
  };
  const schedule = (startedAt: number): void => {
    if (stopped) return;
    const nowMs = clock.now();
    const lastStartMs = nowMs - (clock.monotonic() - startedAt);
    cancelTimer = clock.setTimer(
      runAndSchedule,
      nextRunInMs(state, nowMs, policy.refreshIntervalMs, lastStartMs),
    );
  };

  const waitAtMost = (work: Promise<void>, waitMs: number): Promise<RefreshWait> =>
    new Promise((resolve) => {
      const cancel = clock.setTimer(() => resolve('still-running'), Math.max(0, waitMs));
      void work.then(() => {
        cancel();
        resolve('settled');
      });
    });

  return {
    state: () => state,
    inFlight: () => inflight !== undefined,
    refreshIfDue: async (waitMs) => {
      if (stopped || background) return 'settled';
      if (!inflight && !refreshDue(state, clock.now(), policy.minIntervalMs)) return 'settled';
      return waitAtMost(refreshNow(), waitMs);
    },
    firstData,
    start: () => {
      if (stopped) return;
      if (background) runAndSchedule();
      else void refreshNow();
    },
    stop: async () => {
      stopped = true;
      cancelTimer?.();
      await inflight;
    },
  };
}
