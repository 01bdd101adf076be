import { describe, expect, it } from 'vitest';
import { type PauseGate, type RetryOptions, withRetries } from '../../src/backfill/retry.js';
import { type Failure, failure, type Result } from '../../src/upstream/failure.js';

/** Simulated time: sleeping moves the clock, and every sleep is kept. */
function simulated(retries = 3, random = 0.5) {
  let now = 0;
  const sleeps: number[] = [];
  const gate: PauseGate = { untilMs: 0 };
  const options: RetryOptions = {
    retries,
    maxBackoffMs: 60_000,
    gate,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => random,
  };
  return { options, sleeps, gate, now: () => now };
}

/** A call answering `outcomes` in turn, counting its calls. */
function answers(...outcomes: Result<string>[]) {
  let calls = 0;
  return {
    call: async (): Promise<Result<string>> =>
      outcomes[Math.min(calls++, outcomes.length - 1)] as Result<string>,
    calls: () => calls,
  };
}

const OK: Result<string> = { ok: true, value: 'rows' };

describe('withRetries', () => {
  it('asks again after a passing failure, with backoff, until it succeeds', async () => {
    const s = simulated();
    const a = answers(failure('http_5xx', '502'), failure('timeout', 'slow'), OK);
    const seen: Result<string>[] = [];
    expect(await withRetries(a.call, s.options, (o) => seen.push(o))).toBe(OK);
    expect(a.calls()).toBe(3);
    expect(seen).toHaveLength(3);
    expect(s.sleeps).toEqual([750, 1500]);
  });

  it('gives up after the number of retries, with the last failure', async () => {
    const s = simulated(2);
    const last = failure('network', 'reset');
    const a = answers(failure('network', 'a'), failure('network', 'b'), last, OK);
    expect(await withRetries(a.call, s.options, () => {})).toBe(last);
    expect(a.calls()).toBe(3);
  });

  it('does not ask again after a failure that will not pass', async () => {
    for (const reason of ['auth', 'http_4xx', 'invalid_payload'] as const) {
      const s = simulated();
      const a = answers(failure(reason, 'no'), OK);
      expect((await withRetries(a.call, s.options, () => {})) as Failure).toMatchObject({ reason });
      expect(a.calls()).toBe(1);
    }
  });

  it('pauses every request at the gate for as long as a Retry-After asked, at most an hour', async () => {
    const s = simulated();
    const a = answers(failure('rate_limited', '429', 30_000), OK);
    expect(await withRetries(a.call, s.options, () => {})).toBe(OK);
    expect(s.gate.untilMs).toBe(30_000);
    expect(s.now()).toBe(30_000);
    const long = simulated();
    await withRetries(answers(failure('http_5xx', '503', 86_400_000), OK).call, long.options, () => {});
    expect(long.gate.untilMs).toBe(3_600_000);
  });

  it('waits at a gate another request set before asking', async () => {
    const s = simulated();
    s.gate.untilMs = 5_000;
    const a = answers(OK);
    await withRetries(a.call, s.options, () => {});
    expect(s.sleeps).toEqual([5_000]);
  });

  it('turns a throw into a network failure instead of ending the run', async () => {
    const s = simulated(0);
    const r = await withRetries(
      async () => {
        throw new Error('bug');
      },
      s.options,
      () => {},
    );
    expect(r).toEqual(failure('network', 'request threw: Error: bug'));
  });
});
