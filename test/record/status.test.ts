// The record's section of the status page: when it last completed a round, what it filled, any failure, with
// text from outside escaped.
import { describe, expect, it } from 'vitest';
import type { RecordState } from '../../src/record/record.js';
import { recordStatusHtml } from '../../src/record/status.js';

const NOW = Date.UTC(2026, 10, 27, 12, 0);

describe('the record on the status page', () => {
  it('says there was no round yet', () => {
    const html = recordStatusHtml(
      {
        lastRound: undefined,
        lastSuccessMs: undefined,
        rowsWrittenSinceStart: 0,
        rounds: 0,
        nextRoundAtMs: undefined,
      },
      NOW,
    );
    expect(html).toContain('<dt>Last good round</dt><dd>none yet</dd>');
    expect(html).toContain('<dt>Failure</dt><dd>none</dd>');
  });

  it('says what the last round filled, and its failure escaped', () => {
    const state: RecordState = {
      lastRound: {
        startedAtMs: NOW - 60_000,
        durationMs: 2500,
        result: {
          outcome: 'failed',
          failures: { write: 'HTTP 400 from store: <b>out of bounds</b>' },
          gapsFound: 4,
          gapsAsked: 3,
          rowsMissing: 12,
          rowsWritten: 0,
          unfilled: { no_rows: 1, not_served: 0, failed: 0 },
          upstreamRequests: 5,
          stationsFilled: 2,
          quiet: new Map(),
          filled: new Map(),
        },
      },
      lastSuccessMs: NOW - 16 * 60_000,
      rowsWrittenSinceStart: 340,
      rounds: 7,
      nextRoundAtMs: NOW + 14 * 60_000,
    };
    const html = recordStatusHtml(state, NOW);
    expect(html).toContain('2026-11-27 11:44:00 UTC (16 min ago)');
    expect(html).toContain('<span class="bad">failed</span> at 2026-11-27 11:59:00 UTC');
    expect(html).toContain('4 gaps found, 0 rows written for 2 stations, 5 CityAir requests');
    expect(html).toContain('<code>write</code> — HTTP 400 from store: &lt;b&gt;out of bounds&lt;/b&gt;');
    expect(html).toContain('<dt>Rows written since start</dt><dd>340</dd>');
    expect(html).not.toContain('<b>');
  });
});
