// The pause CityAir asks for holds every caller through the gate: one caller told to wait, the others wait too,
// failing at once as rate-limited with the time left, and no pause lasts longer than an hour.
import { describe, expect, it } from 'vitest';
import type { Upstream } from '../../src/upstream/exchange.js';
import { failure, type Result } from '../../src/upstream/failure.js';
import { type PauseGate, pausedTogether } from '../../src/upstream/shared-pause.js';

const T0 = Date.UTC(2026, 10, 27, 12);
const HOUR = 3_600_000;

/** An upstream whose next answers the test sets, counting what reaches it. */
function fakeUpstream() {
  const sent: string[] = [];
  let answer: Result<unknown> = { ok: true, value: 'rows' };
  const reply = async <T>(path: string): Promise<Result<T>> => {
    sent.push(path);
    return answer as Result<T>;
  };
  const upstream: Upstream = {
    getJson: (path) => reply(path),
    getJsonElements: (path) => reply(path),
    close: async () => undefined,
  };
  const setAnswer = (next: Result<unknown>): void => {
    answer = next;
  };
  return { upstream, sent, answer: setAnswer };
}

const ok = (v: unknown): Result<unknown> => ({ ok: true, value: v });

describe('a pause shared through the gate', () => {
  it('holds the other callers once one caller is told to wait, and lets them through after it', async () => {
    let now = T0;
    const gate: PauseGate = { untilMs: 0 };
    const fake = fakeUpstream();
    const readings = pausedTogether(fake.upstream, gate, () => now);
    const record = pausedTogether(fake.upstream, gate, () => now);
    fake.answer(failure('rate_limited', 'HTTP 429', 120_000));
    const told = await readings.getJson('/a', ok);
    expect(told).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(gate.untilMs).toBe(T0 + 120_000);

    fake.answer({ ok: true, value: 'rows' });
    now = T0 + 20_000;
    const held = await record.getJson('/b', ok);
    const heldElements = await record.getJsonElements('/c', {} as never);
    expect(held).toMatchObject({ ok: false, reason: 'rate_limited', retryAfterMs: 100_000 });
    expect(heldElements).toMatchObject({ ok: false, reason: 'rate_limited', retryAfterMs: 100_000 });
    expect(held.ok ? '' : held.message).toContain(new Date(T0 + 120_000).toISOString());
    expect(fake.sent).toEqual(['/a']);

    now = T0 + 120_000;
    expect(await record.getJson('/d', ok)).toEqual({ ok: true, value: 'rows' });
    expect(fake.sent).toEqual(['/a', '/d']);
  });

  it('caps a pause at an hour however long the API asks', async () => {
    const now = T0;
    const gate: PauseGate = { untilMs: 0 };
    const fake = fakeUpstream();
    const through = pausedTogether(fake.upstream, gate, () => now);
    fake.answer(failure('http_5xx', 'HTTP 503', 3 * 24 * HOUR));
    await through.getJson('/a', ok);
    expect(gate.untilMs).toBe(T0 + HOUR);
    expect(await through.getJson('/b', ok)).toMatchObject({ reason: 'rate_limited', retryAfterMs: HOUR });
  });

  it('keeps the longer of two pauses told to requests in flight together', async () => {
    const now = T0;
    const gate: PauseGate = { untilMs: 0 };
    const answers: ((r: Result<unknown>) => void)[] = [];
    const slow: Upstream = {
      getJson: <T>() =>
        new Promise<Result<T>>((resolve) => answers.push(resolve as (r: Result<unknown>) => void)),
      getJsonElements: async () => failure('network', 'unused'),
      close: async () => undefined,
    };
    const through = pausedTogether(slow, gate, () => now);
    const first = through.getJson('/a', ok);
    const second = through.getJson('/b', ok);
    answers[0]?.(failure('rate_limited', 'HTTP 429', 10 * 60_000));
    answers[1]?.(failure('rate_limited', 'HTTP 429', 30_000));
    await Promise.all([first, second]);
    expect(gate.untilMs).toBe(T0 + 10 * 60_000);
  });

  it('pauses after a good answer that carries a Retry-After too', async () => {
    const gate: PauseGate = { untilMs: 0 };
    const fake = fakeUpstream();
    const through = pausedTogether(fake.upstream, gate, () => T0);
    fake.answer({ ok: true, value: 'rows', retryAfterMs: 30_000 });
    expect(await through.getJson('/a', ok)).toMatchObject({ ok: true });
    expect(await through.getJson('/b', ok)).toMatchObject({ reason: 'rate_limited', retryAfterMs: 30_000 });
    expect(fake.sent).toEqual(['/a']);
  });

  it('sends everything while no pause was asked for', async () => {
    const gate: PauseGate = { untilMs: 0 };
    const fake = fakeUpstream();
    const through = pausedTogether(fake.upstream, gate, () => T0);
    fake.answer(failure('timeout', 'deadline'));
    await through.getJson('/a', ok);
    await through.getJson('/b', ok);
    expect(fake.sent).toEqual(['/a', '/b']);
    expect(gate.untilMs).toBe(0);
  });
});
