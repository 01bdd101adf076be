// The station list's entry in the registry of sources (src/sources.ts): no settings of its own (it is read with
// the upstream settings every command shares), its metric tables, its pool, its collector.
import { type BuiltCollectors, sourceEntry } from '../collector/entry.js';
import type { StationsCollector } from './collector.js';
import { STATION_LIST_HEALTH, STATION_METRICS } from './metrics.js';

/** The station list needs one socket; a second lets a late answer overlap the next request without queueing. */
export const STATION_SOCKETS = 2;

export const STATIONS_SOURCE = sourceEntry({
  name: 'stations',
  settings: {},
  config: () => undefined,
  metrics: [STATION_METRICS, STATION_LIST_HEALTH],
  sockets: () => STATION_SOCKETS,
  create: async ({ config, upstream, registry, log }) =>
    (await import('./collector.js')).createStationsCollector({ config, upstream, registry, log }),
});

/** The station list as built by the registry, for the sources listed after it. */
export function stationsIn(built: BuiltCollectors): StationsCollector {
  const stations = built[STATIONS_SOURCE.name] as StationsCollector | undefined;
  if (stations === undefined)
    throw new Error('the station list must be listed before the sources that read it');
  return stations;
}
