// The API through two pools: one for the station list, one for the readings with exactly as many sockets as
// --measurements.concurrency. undici gives a pool's slot a new socket only once the old one has closed, so a
// readings request that timed out or was refused part way holds its slot until its socket is gone. In one pool
// shared with the station list, the list's idle socket took the next readings request at once, before the API
// had seen the aborted one close: the API counted one request more than the bound (issue 26).
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { createDispatcher, type DispatcherSettings } from './dispatcher.js';
import { createUpstream, type Upstream, type UpstreamOptions } from './exchange.js';

export interface UpstreamPools {
  readonly stations: Upstream;
  readonly readings: Upstream;
  readonly close: () => Promise<void>;
}

/** The station list needs one socket; a second lets a late answer overlap the next request without queueing. */
const STATION_SOCKETS = 2;

/**
 * `dispatcher(connections)` builds a pool of that many sockets (dispatcher.ts); without it, each upstream builds
 * its own keep-alive Agent.
 */
export function openUpstreamPools(
  options: Omit<UpstreamOptions, 'dispatcher' | 'connections'>,
  readingsConcurrency: number,
  dispatcher?: (connections: number) => Dispatcher,
): UpstreamPools {
  const readingsSockets = Math.max(1, Math.floor(readingsConcurrency) || 1);
  const owned: Dispatcher[] = [];
  const open = (connections: number): Upstream => {
    if (!dispatcher) return createUpstream({ ...options, connections });
    const d = dispatcher(connections);
    owned.push(d);
    return createUpstream({ ...options, dispatcher: d });
  };
  const stations = open(STATION_SOCKETS);
  const readings = open(readingsSockets);
  return {
    stations,
    readings,
    close: async () => {
      await Promise.all([stations.close(), readings.close()]);
      await Promise.all(owned.map((d) => d.close()));
    },
  };
}

/**
 * The pools through the proxy and CA that the settings and the environment name; the route is said once in the
 * log, for the first pool.
 */
export function openRoutedPools(
  settings: DispatcherSettings,
  options: Omit<UpstreamOptions, 'dispatcher' | 'connections'>,
  readingsConcurrency: number,
  env: NodeJS.ProcessEnv,
  log: Logger,
): UpstreamPools {
  let said = false;
  const route = (connections: number): Dispatcher => {
    const routeOptions = said ? { connections } : { connections, log };
    said = true;
    return createDispatcher(settings, env, routeOptions).dispatcher;
  };
  return openUpstreamPools(options, readingsConcurrency, route);
}
