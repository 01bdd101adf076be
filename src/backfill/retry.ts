// Asking the API again: a failed request is retried with backoff a bounded number of times; a 429, or a 503 with
// Retry-After, pauses every request of the run (all stations share one gate) until the time the API named.
import { backoffMs, RETRY_AFTER_CAP_MS } from '../refresh/policy.js';
import { failure, type Result } from '../upstream/failure.js';

/** Reasons worth asking again: the API or the path was busy or broken for a moment. */
const RETRYABLE = new Set(['rate_limited', 'http_5xx', 'timeout', 'network', 'invalid_json']);

/** The pause every request shares, set by an answer that asks to wait. */
export interface PauseGate {
  untilMs: number;
}

export interface RetryOptions {
  readonly retries: number;
  readonly maxBackoffMs: number;
  readonly gate: PauseGate;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

/** `call` until it succeeds, fails for good, or has been retried `retries` times; `onAttempt` sees every answer. */
export async function withRetries<T>(
  call: () => Promise<Result<T>>,
  options: RetryOptions,
  onAttempt: (outcome: Result<T>) => void,
): Promise<Result<T>> {
  for (let attempt = 0; ; attempt++) {
    await waitForGate(options);
    let outcome: Result<T>;
    try {
      outcome = await call();
    } catch (error) {
      // The reads answer failures as values; a throw is a bug, and still must not end the run.
      outcome = failure('network', `request threw: ${String(error).slice(0, 200)}`);
    }
    onAttempt(outcome);
    if (outcome.ok || !RETRYABLE.has(outcome.reason) || attempt >= options.retries) return outcome;
    const asked =
      outcome.retryAfterMs === undefined ? undefined : Math.min(outcome.retryAfterMs, RETRY_AFTER_CAP_MS);
    if (asked !== undefined || outcome.reason === 'rate_limited') {
      options.gate.untilMs = Math.max(
        options.gate.untilMs,
        options.now() + (asked ?? retryBackoffMs(attempt, options)),
      );
    } else {
      await options.sleep(retryBackoffMs(attempt, options));
    }
  }
}

/**
 * The wait before retry `attempt` + 1: the exporter's backoff (refresh/policy.ts) after `attempt` + 1 failures in
 * a row, 1 s, 2 s, 4 s ... up to --upstream.max-backoff, jittered so stations do not retry in step.
 */
export function retryBackoffMs(
  attempt: number,
  options: Pick<RetryOptions, 'maxBackoffMs' | 'random'>,
): number {
  return backoffMs(attempt + 1, options.random(), options.maxBackoffMs);
}

async function waitForGate(options: RetryOptions): Promise<void> {
  for (let left = options.gate.untilMs - options.now(); left > 0; left = options.gate.untilMs - options.now())
    await options.sleep(left);
}
