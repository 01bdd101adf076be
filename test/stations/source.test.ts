import { describe, expect, it } from 'vitest';
import type { CollectorState } from '../../src/refresh/policy.js';
import type { StationList } from '../../src/stations/schema.js';
import { stationSource } from '../../src/stations/source.js';
import { renderStationText } from '../../src/stations/text.js';
import { stationListOf } from '../support/station-list.js';

const NOW = Date.UTC(2026, 10, 23, 12);

function refresher(state: CollectorState<StationList>, inFlight = false) {
  return {
    state: () => state,
    inFlight: () => inFlight,
    refreshIfDue: async () => 'settled' as const,
  };
}

const EMPTY: CollectorState<StationList> = {
  current: undefined,
  lastAttempt: undefined,
  consecutiveFailures: 0,
  notBeforeMs: 0,
};

/** The live series as name → value. */
const series = (live: string): Record<string, string> =>
  Object.fromEntries(
    live
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(' ') as [string, string]),
  );

describe('stationSource', () => {
  it('shows cityair_up 0 and no station families before the first refresh', () => {
    const part = stationSource(refresher(EMPTY), () => undefined).collect(NOW, 'settled');
    expect(part.cached).toBeUndefined();
    expect(series(part.live)).toEqual({
      cityair_up: '0',
      cityair_refresh_in_progress: '0',
      cityair_last_refresh_success_timestamp_seconds: '0',
      cityair_last_refresh_duration_seconds: '0',
      cityair_upstream_backoff_until_timestamp_seconds: '0',
    });
  });

  it('shows the outcome of the last completed refresh, with its times in seconds', () => {
    const list = stationListOf([1, 2]);
    const state: CollectorState<StationList> = {
      current: { data: list, fetchedAtMs: NOW - 60_000 },
      lastAttempt: { atMs: NOW - 1000, durationMs: 250, reason: 'timeout', message: 'slow' },
      consecutiveFailures: 1,
      notBeforeMs: NOW + 30_000,
    };
    const part = stationSource(refresher(state, true), () => list).collect(NOW, 'still-running');
    expect(series(part.live)).toEqual({
      cityair_up: '0',
      cityair_refresh_in_progress: '1',
      cityair_last_refresh_success_timestamp_seconds: String((NOW - 60_000) / 1000),
      cityair_last_refresh_duration_seconds: '0.25',
      cityair_upstream_backoff_until_timestamp_seconds: String((NOW + 30_000) / 1000),
    });
    expect(part.cached?.text.equals(renderStationText(list))).toBe(true);
  });

  it('says up after a good refresh', () => {
    const state = {
      ...EMPTY,
      lastAttempt: { atMs: NOW, durationMs: 1, reason: undefined, message: undefined },
    };
    expect(
      series(stationSource(refresher(state), () => undefined).collect(NOW, 'settled').live).cityair_up,
    ).toBe('1');
  });

  it('renders a list once, and a new list anew', () => {
    let list = stationListOf([1]);
    const source = stationSource(refresher(EMPTY), () => list);
    const first = source.collect(NOW, 'settled').cached;
    expect(source.collect(NOW + 1, 'settled').cached).toBe(first);
    list = stationListOf([1]);
    expect(source.collect(NOW + 2, 'settled').cached).not.toBe(first);
  });

  it('lets an on-demand scrape refresh first', () => {
    const r = refresher(EMPTY);
    expect(stationSource(r, () => undefined).beforeScrape).toBe(r.refreshIfDue);
  });
});
