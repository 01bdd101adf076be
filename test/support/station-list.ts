// Station lists for in-process tests, as a read of the list gives them: plain stations by id.
import { syntheticStations } from '../../src/demo/stations.js';
import { parseStationList, type Station, type StationList } from '../../src/stations/schema.js';

/** Online, named `s<id>`, with no place and no time zone, unless `overrides` says otherwise. */
export const plainStation = (id: number, overrides: Partial<Station> = {}): Station => ({
  id,
  name: `s${id}`,
  description: '',
  online: true,
  tz: '',
  utcOffsetSeconds: undefined,
  latitude: undefined,
  longitude: undefined,
  ...overrides,
});

/** A clean list of these stations: nothing rejected, no problems. */
export const stationListOf = (ids: readonly number[], overrides: Partial<Station> = {}): StationList => ({
  stations: ids.map((id) => plainStation(id, overrides)),
  rejected: { invalid: 0, duplicate: 0 },
  problems: [],
  fieldProblems: [],
});

/** The demo's list of `n` stations as a read parses it, built anew at each call (equal, never the same object). */
export function parsedDemoList(n = 20): StationList {
  const parsed = parseStationList(JSON.parse(JSON.stringify(syntheticStations(n))));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** The list with station `i` changed: what a refresh brings when one field of one station moves. */
export const withStation = (l: StationList, i: number, change: Partial<Station>): StationList => ({
  ...l,
  stations: l.stations.map((s, j) => (j === i ? { ...s, ...change } : s)),
});
