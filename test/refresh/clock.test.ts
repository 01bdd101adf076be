// The system clock's timers against Node's own rule, under vitest's fake timers (which copy it): a delay above
// 2^31-1 ms runs after 1 ms. Every wait the exporter arms goes through armTimer, so no setting and no upstream
// answer can turn a long wait into a busy loop.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

describe('the timers of src/', () => {
  const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  // A delay computed from a setting or an answer goes through armTimer; a bare timer takes a named constant.
  // The file watch's poll interval is a constant of web/security.ts or a test's value.
  const ALLOWED = new Set(['options.pollIntervalMs']);

  it('arm a bare setTimeout or setInterval only with a constant delay, outside clock.ts', () => {
    const found: string[] = [];
    for (const file of files(SRC)) {
      if (file.endsWith(join('refresh', 'clock.ts'))) continue;
      const text = readFileSync(file, 'utf8');
      for (const call of text.matchAll(/\bset(?:Timeout|Interval)\(/g)) {
        // The delay is the last argument: read to the bracket that closes the call.
        let depth = 0;
        let end = call.index + call[0].length;
        for (; end < text.length; end++) {
          const c = text[end];
          if (c === '(' || c === '[' || c === '{') depth++;
          else if (c === ')' || c === ']' || c === '}') {
            if (depth === 0) break;
            depth--;
          }
        }
        const args = text.slice(call.index + call[0].length, end).replace(/,\s*$/, '');
        const delay = args.slice(args.lastIndexOf(',') + 1).trim();
        if (!/^(?:[A-Z][A-Z0-9_]*|\d[\d_]*)$/.test(delay) && !ALLOWED.has(delay)) {
          found.push(`${file.slice(SRC.length)}: ${call[0]}…, ${delay})`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
