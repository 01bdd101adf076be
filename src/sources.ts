// The registry of sources: one line per slice, in the order they are built (a source that reads another comes
// after it). Everything that used to name each source is read from here: the exporter's settings table and
// configuration (cli.ts), the connection budget and the collectors (app.ts), the README's metric check and the
// import-layering test's list of slices. A new source is its folder, with a `slice.ts` exporting its entry
// (collector/entry.ts says the shape), and one line below.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Collector } from './collector/contract.js';
import {
  type BuiltCollectors,
  isCollector,
  type SourceEntry,
  type SourcePart,
  type Worker,
} from './collector/entry.js';
import type { EngineConfig } from './config/config.js';
import { READINGS_SOURCE } from './readings/slice.js';
import { RECORD_SOURCE } from './record/slice.js';
import { STATIONS_SOURCE } from './stations/slice.js';
import type { Upstream } from './upstream/exchange.js';
import { type PauseGate, pausedTogether } from './upstream/shared-pause.js';

export const SOURCES = [STATIONS_SOURCE, READINGS_SOURCE, RECORD_SOURCE] as const;

type Source = (typeof SOURCES)[number];
export type SourceName = Source['name'];

/** The list as the composition root walks it: each source's own configuration is the value under its name. */
export const SOURCE_LIST: readonly SourceEntry<SourceName>[] = SOURCES;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** Every source's settings, as one table. */
export type SourceSettings = UnionToIntersection<Source['settings']>;

/** Each source's part of the configuration, under its name; a source with none (undefined) has no key. */
export type SourcesConfig = {
  readonly [S in Source as ReturnType<S['config']> extends undefined ? never : S['name']]: ReturnType<
    S['config']
  >;
};

/** A source's own part of the configuration (undefined for a source without one). */
const ownConfig = (config: EngineConfig, name: SourceName): unknown =>
  (config as unknown as Readonly<Record<string, unknown>>)[name];

/** The sources with a pool of their own. */
export type PoolName = Exclude<SourceName, (typeof RECORD_SOURCE)['name']>;

/**
 * The connection budget: the sockets of each source's pool, as its entry asks for its configuration. A source
 * that shares another's pool (the record, the readings') adds none: CityAir's bound on requests in flight is the
 * owner's.
 */
export function socketsOf(config: EngineConfig & SourcesConfig): Record<PoolName, number> {
  const sockets: Record<string, number> = {};
  for (const source of SOURCE_LIST)
    if (source.sharesPoolOf === undefined)
      sockets[source.name] = source.sockets(ownConfig(config, source.name));
  return sockets as Record<PoolName, number>;
}

/**
 * Each source's upstream and the pause of its pool: a pool shared by several sources is paused together (one
 * client to CityAir), a pool of one source's own is handed as it is.
 */
function poolsBySource(
  pools: Readonly<Record<string, Upstream>>,
): Record<string, { upstream: Upstream; gate: PauseGate }> {
  const users = new Map<string, number>();
  for (const source of SOURCE_LIST) {
    const pool = source.sharesPoolOf ?? source.name;
    users.set(pool, (users.get(pool) ?? 0) + 1);
  }
  const byPool: Record<string, { upstream: Upstream; gate: PauseGate }> = {};
  for (const [pool, count] of users) {
    const upstream = pools[pool];
    if (upstream === undefined) continue;
    const gate: PauseGate = { untilMs: 0 };
    byPool[pool] = { upstream: count > 1 ? pausedTogether(upstream, gate) : upstream, gate };
  }
  const bySource: Record<string, { upstream: Upstream; gate: PauseGate }> = {};
  for (const source of SOURCE_LIST) {
    const own = byPool[source.sharesPoolOf ?? source.name];
    if (own !== undefined) bySource[source.name] = own;
  }
  return bySource;
}

/** Every source's collector, in the registry's order, each given the ones built before it. */
export async function buildCollectors(parts: {
  readonly config: EngineConfig & SourcesConfig;
  readonly upstream: Readonly<Record<PoolName, Upstream>>;
  readonly registry: Registry;
  readonly log: Logger;
  readonly userAgent: string;
}): Promise<{
  readonly collectors: readonly Collector[];
  readonly workers: readonly Worker[];
  readonly built: BuiltCollectors;
  readonly sections: readonly ((nowMs: number) => string)[];
}> {
  const { config, registry, log, userAgent } = parts;
  const pools = poolsBySource(parts.upstream);
  const built: Record<string, SourcePart | undefined> = {};
  const sections: ((nowMs: number) => string)[] = [];
  for (const source of SOURCE_LIST) {
    const own = ownConfig(config, source.name);
    const pool = pools[source.name];
    if (pool === undefined) throw new Error(`no pool for the source ${source.name}`);
    const part = await source.create({ config, own, ...pool, registry, log, userAgent }, built);
    built[source.name] = part;
    if (part !== undefined && source.statusSection) sections.push(source.statusSection(part));
  }
  const all = Object.values(built).filter((c): c is SourcePart => c !== undefined);
  return {
    collectors: all.filter(isCollector),
    workers: all.filter((p): p is Worker => !isCollector(p)),
    built,
    sections,
  };
}
