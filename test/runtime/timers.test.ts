// armTimer against Node's own rule, under vitest's fake timers (which copy it): a delay above 2^31-1 ms runs after
// 1 ms. Every wait the exporter arms goes through armTimer, so no setting and no upstream answer can turn a long
// wait into a busy loop.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { armTimer, TIMER_LIMIT_MS } from '../../src/runtime/timers.js';

const DAY = 24 * 3600 * 1000;

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

describe('the timers of src/', () => {
  const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  // A delay computed from a setting or an answer goes through armTimer; a bare timer takes a named constant.
  // The file watch's poll interval is a constant of web/security.ts or a test's value.
  const ALLOWED = new Set(['options.pollIntervalMs']);

  it('arm a bare setTimeout or setInterval only with a constant delay, outside timers.ts', () => {
    const found: string[] = [];
    for (const file of files(SRC)) {
      if (file.endsWith(join('runtime', 'timers.ts'))) continue;
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
