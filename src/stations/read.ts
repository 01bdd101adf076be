// The station list's read: one GET of /harvester/v2/Posts, validated by the slice's own schema.
import { POSTS_PATH } from '../config/config.js';
import type { Upstream } from '../upstream/exchange.js';
import type { Result } from '../upstream/failure.js';
import { parseStationList, type StationList } from './schema.js';

/** The upstream read as a function: the refresher needs nothing else, so its tests need no network. */
export type FetchStations = () => Promise<Result<StationList>>;

export function readStations(upstream: Pick<Upstream, 'getJson'>): FetchStations {
  return () => upstream.getJson(POSTS_PATH, parseStationList);
}
