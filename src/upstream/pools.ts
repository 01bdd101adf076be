// The API through a pool per source, each with exactly as many sockets as the source may have requests in flight
// (the readings: --measurements.concurrency). undici gives a pool's slot a new socket only once the old one has closed, so a
// readings request that timed out or was refused part way holds its slot until its socket is gone. In one pool
// shared with the station list, the list's idle socket took the next readings request at once, before the API
// had seen the aborted one close: the API counted one request more than the bound (issue 26).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { Secret } from '../config/secret.js';
import { createDispatcher, type DispatcherSettings } from './dispatcher.js';
import { createUpstream, type Upstream, type UpstreamOptions } from './exchange.js';

/** One pool per source, named by the source, and the one close for all of them. */
export type UpstreamPools<K extends string> = { readonly [P in K]: Upstream } & {
  readonly close: () => Promise<void>;
};

/**
 * A pool per source, each of as many sockets as the source may have requests in flight (the connection budget:
 * each source's entry in the registry says its own). `dispatcher(connections)` builds a pool of that many sockets
 * (dispatcher.ts); without it, each upstream builds its own keep-alive Agent.
 */
export function openPools<K extends string>(
  options: Omit<UpstreamOptions, 'dispatcher' | 'connections'>,
  sockets: Readonly<Record<K, number>>,
  dispatcher?: (connections: number) => Dispatcher,
): UpstreamPools<K> {
  const owned: Dispatcher[] = [];
  const open = (connections: number): Upstream => {
    if (!dispatcher) return createUpstream({ ...options, connections });
    const d = dispatcher(connections);
    owned.push(d);
    return createUpstream({ ...options, dispatcher: d });
  };
  const pools = {} as Record<K, Upstream>;
  for (const name of Object.keys(sockets) as K[])
    pools[name] = open(Math.max(1, Math.floor(sockets[name]) || 1));
  const all = Object.values(pools) as Upstream[];
  return {
    ...pools,
    close: async () => {
      await Promise.all(all.map((u) => u.close()));
      await Promise.all(owned.map((d) => d.close()));
    },
  } as UpstreamPools<K>;
}

/**
 * The pools through the proxy and CA that the settings and the environment name; the route is said once in the
 * log, for the first pool.
 */
export function openRoutedPools<K extends string>(
  settings: DispatcherSettings,
  options: Omit<UpstreamOptions, 'dispatcher' | 'connections'>,
  sockets: Readonly<Record<K, number>>,
  env: NodeJS.ProcessEnv,
  log: Logger,
): UpstreamPools<K> {
  let said = false;
  const route = (connections: number): Dispatcher => {
    const routeOptions = said ? { connections } : { connections, log };
    said = true;
    return createDispatcher(settings, env, routeOptions).dispatcher;
  };
  return openPools(options, sockets, route);
}

/** A simulated API on loopback (the demo's): where it listens, and how to stop it. */
export interface SimulatedApi {
  readonly baseUrl: string;
  readonly close: () => Promise<void>;
}

export interface OpenApiOptions<K extends string> {
  /** The upstream settings every command shares (config.ts UpstreamConfig). */
  readonly settings: DispatcherSettings & Omit<UpstreamOptions, 'dispatcher' | 'connections' | 'userAgent'>;
  readonly userAgent: string;
  /** Sockets of each source's pool: the connection budget. */
  readonly sockets: Readonly<Record<K, number>>;
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
export async function openApi<K extends string>(options: OpenApiOptions<K>): Promise<UpstreamPools<K>> {
  const { settings, userAgent, sockets, log, simulated } = options;
  if (simulated === undefined)
    return openRoutedPools(settings, { ...settings, userAgent }, sockets, options.env, log);
  const key = randomBytes(16).toString('hex');
  const sim = await simulated.start(key);
  log.warn({ simulator: sim.baseUrl }, simulated.warning);
  const pools = openPools({ ...settings, baseUrl: sim.baseUrl, apiKey: new Secret(key), userAgent }, sockets);
  return {
    ...pools,
    close: async () => {
      await pools.close();
      await sim.close();
    },
  };
}
