// The station source keeps the text it rendered while each new list renders the same: an on-demand exporter
// reads the list at every scrape, and a fresh copy of an unchanged text per scrape is memory held until V8's next
// full collection.
import { describe, expect, it } from 'vitest';
import { syntheticPosts } from '../../src/demo/stations.js';
import { afterSuccess, type CollectorState, initialState } from '../../src/refresh/policy.js';
import { rendersSame } from '../../src/stations/same-text.js';
import { parseStationList, type Station, type StationList } from '../../src/stations/schema.js';
import { stationSource } from '../../src/stations/source.js';
import { renderStationText } from '../../src/stations/text.js';

const NOW = 1_800_000_000_000;

function list(posts = syntheticPosts(20)): StationList {
  const parsed = parseStationList(JSON.parse(JSON.stringify(posts)));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

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

const changed = (l: StationList, i: number, change: Partial<Station>): StationList => ({
  ...l,
  stations: l.stations.map((s, j) => (j === i ? { ...s, ...change } : s)),
});

describe('the station source across refreshes', () => {
  it('keeps the same text while each new list renders the same, and renders again on any change', () => {
    const src = sourceOver();
    const first = list();
    src.serve(first);
    const text = src.text();
    src.serve(list());
    expect(src.text()).toBe(text);
    const offline = changed(first, 3, { online: !first.stations[3]?.online });
    src.serve(offline);
    const next = src.text();
    expect(next).not.toBe(text);
    expect(next?.equals(renderStationText(offline))).toBe(true);
  });
});

describe('rendersSame', () => {
  const base = list();
  it('is true for an equal list built anew', () => {
    expect(rendersSame(base, list())).toBe(true);
  });
  const changes: [string, StationList][] = [
    ['id', changed(base, 0, { id: 7 })],
    ['name', changed(base, 1, { name: 'other' })],
    ['description', changed(base, 2, { description: 'other' })],
    ['online', changed(base, 3, { online: !base.stations[3]?.online })],
    ['tz', changed(base, 4, { tz: 'Etc/UTC' })],
    ['utc offset', changed(base, 5, { utcOffsetSeconds: undefined })],
    ['latitude', changed(base, 6, { latitude: 1.5 })],
    ['longitude', changed(base, 7, { longitude: undefined })],
    ['a station fewer', { ...base, stations: base.stations.slice(1) }],
    ['rejected', { ...base, rejected: { invalid: 1, duplicate: 0 } }],
    ['fields skipped', { ...base, skippedFields: { ...(base.skippedFields ?? {}), tz: 2 } } as StationList],
  ];
  it.each(changes)('is false when %s differs, and the texts differ too', (_what, other) => {
    expect(rendersSame(base, other)).toBe(false);
    expect(renderStationText(base).equals(renderStationText(other))).toBe(false);
  });
});
