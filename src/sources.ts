// The registry of sources: one line per slice, in the order they are built (a source that reads another comes
// after it). Everything that used to name each source is read from here: the exporter's settings table and
// configuration (cli.ts), the connection budget and the collectors (app.ts), the README's metric check and the
// import-layering test's list of slices. A new source is its folder, with a `slice.ts` exporting its entry
// (collector/entry.ts says the shape), and one line below.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Collector } from './collector/contract.js';
import type { BuiltCollectors, SourceEntry } from './collector/entry.js';
import type { EngineConfig } from './config/config.js';
import { READINGS_SOURCE } from './readings/slice.js';
import { STATIONS_SOURCE } from './stations/slice.js';
import type { Upstream } from './upstream/exchange.js';

export const SOURCES = [STATIONS_SOURCE, READINGS_SOURCE] as const;

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

/** The connection budget: the sockets of each source's pool, as its entry asks for its configuration. */
export function socketsOf(config: EngineConfig & SourcesConfig): Record<SourceName, number> {
  const sockets = {} as Record<SourceName, number>;
  for (const source of SOURCE_LIST) sockets[source.name] = source.sockets(ownConfig(config, source.name));
  return sockets;
}

/** Every source's collector, in the registry's order, each given the ones built before it. */
export async function buildCollectors(parts: {
  readonly config: EngineConfig & SourcesConfig;
  readonly upstream: Readonly<Record<SourceName, Upstream>>;
  readonly registry: Registry;
  readonly log: Logger;
}): Promise<{ readonly collectors: readonly Collector[]; readonly built: BuiltCollectors }> {
  const { config, registry, log } = parts;
  const built: Record<string, Collector | undefined> = {};
  for (const source of SOURCE_LIST) {
    const own = ownConfig(config, source.name);
    built[source.name] = await source.create(
      { config, own, upstream: parts.upstream[source.name], registry, log },
      built,
    );
  }
  return { collectors: Object.values(built).filter((c): c is Collector => c !== undefined), built };
}
