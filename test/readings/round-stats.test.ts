import { describe, expect, it } from 'vitest';
import { allFailed, logRound, type Settled, tally } from '../../src/readings/round-stats.js';
import type { RowCounts } from '../../src/readings/rows.js';
import type { ParsedReadings, SkippedField } from '../../src/readings/schema.js';
import { type Failure, failure } from '../../src/upstream/failure.js';
import { recordingLog } from '../support/log-lines.js';

const NOW = Date.UTC(2026, 10, 23, 12);

/** What a round keeps of an answer: its counts and the fields left out (the reading itself does not matter here). */
type Over = Partial<RowCounts> & { readonly skipped?: readonly SkippedField[] };
const parsed = (over: Over = {}): ParsedReadings =>
  ({ reading: undefined, skipped: [], rejectedRows: 0, ...over }) as ParsedReadings;
const ok = (state: 'fresh' | 'stale' | 'empty', over: Over = {}): Settled => ({
  state,
  parsed: parsed(over),
});
const failed = (f: Failure): Settled => ({ state: 'failed', failure: f });

function facts(ids: number[], settled: [number, Settled][], stop?: Failure) {
  return { ids, settled: new Map(settled), startedAtMs: NOW, durationMs: 1500, stop, resumeAt: undefined };
}

describe('tally', () => {
  it('puts every station asked for in exactly one state; those never asked are deferred', () => {
    const stats = tally(
      facts(
        [1, 2, 3, 4, 5, 6],
        [
          [1, ok('fresh')],
          [2, ok('fresh')],
          [3, ok('stale')],
          [4, ok('empty')],
          [5, failed(failure('timeout', 't'))],
        ],
      ),
    );
    expect(stats.stations).toEqual({ fresh: 2, stale: 1, empty: 1, failed: 1, deferred: 1 });
    expect(stats.requests).toBe(5);
    expect(stats.failures.timeout).toBe(1);
    expect(stats).toMatchObject({ startedAtMs: NOW, durationMs: 1500, retryAfterMs: undefined });
  });

  it('adds up rows and skipped fields, and lists each unknown unit once', () => {
    const skipped = [
      { field: 'co', reason: 'unknown_unit', unit: 'ppm' },
      { field: 'pm10', reason: 'missing' },
    ] as const;
    const stats = tally(
      facts(
        [1, 2],
        [
          [
            1,
            ok('fresh', {
              skipped: [...skipped],
              rejectedRows: 2,
              futureRows: 3,
              newestFutureMs: NOW + 1,
            }),
          ],
          [2, ok('fresh', { skipped: [...skipped], rejectedRows: 1 })],
        ],
      ),
    );
    expect(stats.rejectedRows).toBe(3);
    expect(stats.futureRows).toBe(3);
    expect(stats.futureDated).toEqual([{ id: 1, atMs: NOW + 1 }]);
    expect(stats.skippedFields).toMatchObject({ unknown_unit: 2, missing: 2, no_unit: 0 });
    expect(stats.unknownUnits).toEqual([{ field: 'co', unit: 'ppm' }]);
  });

  it('lists at most 20 future-dated stations and 20 unknown units', () => {
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    const stats = tally(
      facts(
        ids,
        ids.map((id) => [
          id,
          ok('empty', {
            futureRows: 1,
            newestFutureMs: NOW + id,
            skipped: [{ field: 'co', reason: 'unknown_unit', unit: `u${id}` }],
          }),
        ]),
      ),
    );
    expect(stats.futureDated).toHaveLength(20);
    expect(stats.unknownUnits).toHaveLength(20);
    expect(stats.futureRows).toBe(30);
  });

  it('keeps the pause a stopping answer asked for', () => {
    const stop = failure('rate_limited', 'slow down', 60_000);
    const stats = tally(facts([1, 2], [[1, failed(stop)]], stop));
    expect(stats.retryAfterMs).toBe(60_000);
    expect(stats.stations.deferred).toBe(1);
  });
});

describe('logRound', () => {
  const settled = new Map<number, Settled>([
    [1, ok('fresh')],
    [2, failed(failure('http_5xx', 'status 502'))],
    [3, failed(failure('timeout', 'slow'))],
  ]);

  it('warns once for a round in which some stations failed, with the first failure as an example', () => {
    const { log, lines } = recordingLog();
    const stats = tally(facts([1, 2, 3], [...settled]));
    logRound(log, stats, settled, undefined);
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: 'readings requests failed for some stations',
        fields: {
          failed: 2,
          requests: 3,
          reasons: { http_5xx: 1, timeout: 1 },
          deferred: 0,
          retry_after_ms: undefined,
          example: 'status 502',
        },
      },
    ]);
  });

  it('says the round stopped when the API asked to wait', () => {
    const { log, lines } = recordingLog();
    const stop = failure('rate_limited', '429', 1000);
    const s = new Map<number, Settled>([
      [1, ok('fresh')],
      [2, failed(stop)],
    ]);
    logRound(log, tally(facts([1, 2, 3], [...s], stop)), s, stop);
    expect(lines[0]?.msg).toBe('readings round stopped: the API asked to wait');
  });

  it('says nothing when none failed, or all did (the round fails then)', () => {
    const { log, lines } = recordingLog();
    const none = new Map<number, Settled>([[1, ok('fresh')]]);
    logRound(log, tally(facts([1], [...none])), none, undefined);
    const all = new Map<number, Settled>([[1, failed(failure('auth', 'no'))]]);
    logRound(log, tally(facts([1], [...all])), all, undefined);
    expect(lines).toEqual([]);
  });
});

describe('allFailed', () => {
  it('fails with the commonest reason and the first message, carrying the stats', () => {
    const settled = new Map<number, Settled>([
      [1, failed(failure('timeout', 'slow 1'))],
      [2, failed(failure('http_5xx', '502'))],
      [3, failed(failure('http_5xx', '503'))],
    ]);
    const stats = tally(facts([1, 2, 3], [...settled]));
    const f = allFailed(stats, settled, undefined);
    expect(f).toMatchObject({
      ok: false,
      reason: 'http_5xx',
      message: 'all 3 readings requests failed; slow 1',
    });
    expect(f.stats).toBe(stats);
  });

  it('fails with the answer that asked to wait, and its pause', () => {
    const stop = failure('rate_limited', 'too many', 30_000);
    const settled = new Map<number, Settled>([
      [1, failed(failure('timeout', 'slow'))],
      [2, failed(failure('timeout', 'slow'))],
      [3, failed(stop)],
    ]);
    const f = allFailed(tally(facts([1, 2, 3], [...settled], stop)), settled, stop);
    expect(f).toMatchObject({
      reason: 'rate_limited',
      message: 'all 3 readings requests failed; too many',
      retryAfterMs: 30_000,
    });
  });
});
