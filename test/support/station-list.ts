// Station lists for in-process tests, as a read of the list gives them: plain stations by id.
import type { Station, StationList } from '../../src/stations/schema.js';

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
