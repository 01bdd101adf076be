// The station source keeps the text it rendered while each new list renders the same: an on-demand exporter
// reads the list at every scrape, and a fresh copy of an unchanged text per scrape is memory held until V8's next
// full collection.
import { describe, expect, it } from 'vitest';
import { afterSuccess, type CollectorState, initialState } from '../../src/refresh/policy.js';
import type { StationList } from '../../src/stations/schema.js';
import { stationSource } from '../../src/stations/source.js';
import { renderStationText } from '../../src/stations/text.js';
import { parsedDemoList, stationListOf, withStation } from '../support/station-list.js';

const NOW = 1_800_000_000_000;

/** A source over a list that the test swaps, as refreshes would. */
function sourceOver(): { text: () => Buffer | undefined; serve: (l: StationList) => void } {
  let state: CollectorState<StationList> = initialState();
  const source = stationSource(
    { state: () => state, refreshIfDue: async () => 'settled', inFlight: () => false },
    () => state.current?.data,
  );
  return {
    serve: (l) => {
      state = afterSuccess({ data: l, fetchedAtMs: NOW }, 10);
    },
    text: () => source.collect(NOW, 'settled').cached?.text,
  };
}

describe('the station source across refreshes', () => {
  it('keeps the same text while each new list renders the same, and renders again on any change', () => {
    const src = sourceOver();
    const first = parsedDemoList();
    src.serve(first);
    const text = src.text();
    src.serve(parsedDemoList());
    expect(src.text()).toBe(text);
    const offline = withStation(first, 3, { online: !first.stations[3]?.online });
    src.serve(offline);
    const next = src.text();
    expect(next).not.toBe(text);
    expect(next?.equals(renderStationText(offline))).toBe(true);
  });
});

const AT = Date.UTC(2026, 10, 23, 12);

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
    const part = stationSource(refresher(EMPTY), () => undefined).collect(AT, 'settled');
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
      current: { data: list, fetchedAtMs: AT - 60_000 },
      lastAttempt: { atMs: AT - 1000, durationMs: 250, reason: 'timeout', message: 'slow' },
      consecutiveFailures: 1,
      notBeforeMs: AT + 30_000,
    };
    const part = stationSource(refresher(state, true), () => list).collect(AT, 'still-running');
    expect(series(part.live)).toEqual({
      cityair_up: '0',
      cityair_refresh_in_progress: '1',
      cityair_last_refresh_success_timestamp_seconds: String((AT - 60_000) / 1000),
      cityair_last_refresh_duration_seconds: '0.25',
      cityair_upstream_backoff_until_timestamp_seconds: String((AT + 30_000) / 1000),
    });
    expect(part.cached?.text.equals(renderStationText(list))).toBe(true);
  });

  it('says up after a good refresh', () => {
    const state = {
      ...EMPTY,
      lastAttempt: { atMs: AT, durationMs: 1, reason: undefined, message: undefined },
    };
    expect(
      series(stationSource(refresher(state), () => undefined).collect(AT, 'settled').live).cityair_up,
    ).toBe('1');
  });

  it('renders a list once, and a new list anew', () => {
    let list = stationListOf([1]);
    const source = stationSource(refresher(EMPTY), () => list);
    const first = source.collect(AT, 'settled').cached;
    expect(source.collect(AT + 1, 'settled').cached).toBe(first);
    list = stationListOf([2]);
    expect(source.collect(AT + 2, 'settled').cached).not.toBe(first);
  });

  it('lets an on-demand scrape refresh first', () => {
    const r = refresher(EMPTY);
    expect(stationSource(r, () => undefined).beforeScrape).toBe(r.refreshIfDue);
  });
});
