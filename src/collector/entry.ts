// What a source is to the registry (src/sources.ts): one entry per slice, from which the exporter's settings
// table, its configuration, the connection budget, the collectors and the README's metric check are all read. A
// slice exports its entry from its own `slice.ts`; a new source is its folder and one line in the registry.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AnySpec } from '../config/command-line.js';
import type { EngineConfig } from '../config/config.js';
import type { ParsedOf } from '../config/settings.js';
import type { MetricSpec } from '../exposition/catalog.js';
import type { Upstream } from '../upstream/exchange.js';
import type { Collector } from './contract.js';

/** What the composition root hands a source's constructor. */
export interface SourceDeps<Own> {
  readonly config: EngineConfig;
  /** The source's own part of the configuration, as its `config` made it. */
  readonly own: Own;
  /** The source's own pool of connections to the API, as wide as its `sockets` asked. */
  readonly upstream: Upstream;
  readonly registry: Registry;
  readonly log: Logger;
}

/** The collectors built so far, by source name: a source may read those listed before it. */
export type BuiltCollectors = Readonly<Record<string, Collector | undefined>>;

export interface SourceEntry<
  Name extends string = string,
  Settings extends Readonly<Record<string, AnySpec>> = Readonly<Record<string, AnySpec>>,
  Own = unknown,
  C extends Collector = Collector,
> {
  /** The slice's folder under src/: its key in Config, in the pools and in the import-layering test. */
  readonly name: Name;
  /** Its settings: in the exporter's table (and --help, and the README's table) after the upstream settings. */
  readonly settings: Settings;
  /** Its part of Config, from its settings as read. */
  config(parsed: ParsedOf<Settings>): Own;
  /** Lines to log at start for settings that are valid but most likely not meant. */
  warnings?(own: Own): string[];
  /** Every metric table of the slice: the README must document each metric. */
  readonly metrics: readonly Readonly<Record<string, MetricSpec>>[];
  /** Sockets its pool holds (at least 1): as many as it may have requests in flight. */
  sockets(own: Own): number;
  /**
   * Its collector, or undefined when switched off; `built` holds the collectors of the entries before it. The
   * collector's code is imported here, not at the top of slice.ts, so that --help and a configuration error
   * answer without loading prom-client, fastify or undici.
   */
  create(deps: SourceDeps<Own>, built: BuiltCollectors): Promise<C | undefined>;
}

// The functions are methods so that any entry is also a SourceEntry of unknown settings and configuration, which
// is how the composition root walks the list; each entry's own types are checked where it is written.

/** Keeps an entry's types while checking it against the shape. */
export const sourceEntry = <
  const Name extends string,
  Settings extends Readonly<Record<string, AnySpec>>,
  Own,
  C extends Collector,
>(
  entry: SourceEntry<Name, Settings, Own, C>,
): SourceEntry<Name, Settings, Own, C> => entry;
