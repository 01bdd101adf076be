// The API through two pools: one for the station list, one for the readings with exactly as many sockets as
// --measurements.concurrency. undici gives a pool's slot a new socket only once the old one has closed, so a
// readings request that timed out or was refused part way holds its slot until its socket is gone. In one pool
// shared with the station list, the list's idle socket took the next readings request at once, before the API
// had seen the aborted one close: the API counted one request more than the bound (issue 26).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { Secret } from '../config/secret.js';
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

/** A simulated API on loopback (the demo's): where it listens, and how to stop it. */
export interface SimulatedApi {
  readonly baseUrl: string;
  readonly close: () => Promise<void>;
}

export interface OpenApiOptions {
  /** The upstream settings every command shares (config.ts UpstreamConfig). */
  readonly settings: DispatcherSettings & Omit<UpstreamOptions, 'dispatcher' | 'connections' | 'userAgent'>;
  readonly userAgent: string;
  readonly readingsConcurrency: number;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /**
   * With --demo: starts the simulator with the key it is to accept, and the warning that says what is served.
   * The simulator is local: no proxy, no extra CA, and a key made up for this run.
   */
  readonly simulated?: {
    readonly start: (apiKey: string) => Promise<SimulatedApi>;
    readonly warning: string;
  };
}

/** The one way every command opens the API: the routed pools, or the pools to the demo's simulator. */
export async function openApi(options: OpenApiOptions): Promise<UpstreamPools> {
  const { settings, userAgent, readingsConcurrency, log, simulated } = options;
  if (simulated === undefined)
    return openRoutedPools(settings, { ...settings, userAgent }, readingsConcurrency, options.env, log);
  const key = randomBytes(16).toString('hex');
  const sim = await simulated.start(key);
  log.warn({ simulator: sim.baseUrl }, simulated.warning);
  const pools = openUpstreamPools(
    { ...settings, baseUrl: sim.baseUrl, apiKey: new Secret(key), userAgent },
    readingsConcurrency,
  );
  return {
    ...pools,
    close: async () => {
      await pools.close();
      await sim.close();
    },
  };
}
