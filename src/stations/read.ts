// The station list's read: one GET of /harvester/v2/Posts, validated by the slice's own schema.
import { STATIONS_PATH } from '../config/config.js';
import type { Upstream } from '../upstream/exchange.js';
import type { Result } from '../upstream/failure.js';
import { type StationList, stationListReader } from './schema.js';

/** The upstream read as a function: the refresher needs nothing else, so its tests need no network. */
export type FetchStations = () => Promise<Result<StationList>>;

/** The list is read element by element, and refused whole when it holds more than maxStations elements. */
export function readStations(
  upstream: Pick<Upstream, 'getJsonElements'>,
  maxStations: number,
): FetchStations {
  const reader = stationListReader(maxStations);
  return () => upstream.getJsonElements(STATIONS_PATH, reader);
}
