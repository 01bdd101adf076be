import { describe, expect, it, vi } from 'vitest';
import { clock, progressFigures, progressLine, startProgress } from '../../src/backfill/progress.js';
import { newStats } from '../../src/backfill/stats.js';

describe('progress', () => {
  it('says stations, rows, samples, requests, failures, rate, elapsed and an estimate', () => {
    const stats = newStats(0);
    Object.assign(stats, { stationsTotal: 4, stationsDone: 1, rows: 12_000, samples: 150_000 });
    Object.assign(stats, { requests: 50, failedRequests: 2, coveredMs: 1000 });
    const line = progressLine(progressFigures(stats, 60_000, 1000));
    expect(line).toBe(
      'stations 1/4  rows 12,000  samples 150,000  requests 50 (2 failed)  200 rows/s  elapsed 1m0s  ETA 3m0s',
    );
    expect(clock(3725)).toBe('1h2m5s');
  });

  it('redraws one line in place on a terminal, and logs every 10 s elsewhere', () => {
    vi.useFakeTimers();
    try {
      const stats = newStats(0);
      let written = '';
      const logged: unknown[] = [];
      const tty = startProgress({
        stats,
        spanMs: 1,
        now: () => 1000,
        // Under some wrappers a terminal says its width is 0: the whole line is still shown.
        tty: {
          columns: 0,
          write: (t) => {
            written += t;
          },
        },
        log: () => {},
      });
      vi.advanceTimersByTime(600);
      expect(written.split('\r\x1b[K').filter(Boolean)).toHaveLength(2);
      expect(written).toContain('stations 0/0  rows 0');
      expect(written).toContain('ETA ?');
      tty.stop();
      expect(written.endsWith('\r\x1b[K')).toBe(true);
      const off = startProgress({
        stats,
        spanMs: 1,
        now: () => 1000,
        tty: undefined,
        log: (f) => logged.push(f),
      });
      vi.advanceTimersByTime(25_000);
      expect(logged).toHaveLength(2);
      off.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
