// What a source is to the registry (src/sources.ts): one entry per slice, from which the exporter's settings
// table, its configuration, the connection budget, the collectors and the README's metric check are all read. A
// slice exports its entry from its own `slice.ts`; a new source is its folder and one line in the registry.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AnyListSpec, AnySpec, Flags, Lists } from '../config/command-line.js';
import type { EngineConfig } from '../config/config.js';
import type { ParsedOf } from '../config/settings.js';
import type { MetricSpec } from '../exposition/catalog.js';
import type { Upstream } from '../upstream/exchange.js';
import type { PauseGate } from '../upstream/shared-pause.js';
import type { Collector } from './contract.js';

/** What the composition root hands a source's constructor. */
export interface SourceDeps<Own> {
  readonly config: EngineConfig;
  /** The source's own part of the configuration, as its `config` made it. */
  readonly own: Own;
  /** The source's pool of connections to the API, as wide as its `sockets` asked (or the one it shares). */
  readonly upstream: Upstream;
  /** The pause CityAir asked of that pool; a pool two sources share is held by it for both. */
  readonly gate: PauseGate;
  readonly registry: Registry;
  readonly log: Logger;
  /** The User-Agent of this build, for requests outside the pools (the record's store). */
  readonly userAgent: string;
}

/** Work a source runs on its own timer that serves no part of a scrape (the record's rounds). */
export interface Worker {
  readonly start: () => void;
  readonly stop: () => Promise<void>;
}

/** What a source's entry builds: a collector, or a worker. */
export type SourcePart = Collector | Worker;

export const isCollector = (part: SourcePart): part is Collector => 'source' in part;

/** The collectors (and workers) built so far, by source name: a source may read those listed before it. */
export type BuiltCollectors = Readonly<Record<string, SourcePart | undefined>>;

/** What a source's `config` may read besides its own settings. */
export interface ConfigContext {
  /** The flags as given, to tell a setting given from its default. */
  readonly flags: Flags;
  /** Its repeatable flags, as given. */
  readonly lists: Lists;
  /** The configuration of the sources before it, by name. */
  readonly earlier: Readonly<Record<string, unknown>>;
}

export interface SourceEntry<
  Name extends string = string,
  Settings extends Readonly<Record<string, AnySpec>> = Readonly<Record<string, AnySpec>>,
  Own = unknown,
  C extends SourcePart = SourcePart,
> {
  /** The slice's folder under src/: its key in Config, in the pools and in the import-layering test. */
  readonly name: Name;
  /** Its settings: in the exporter's table (and --help, and the README's table) after the upstream settings. */
  readonly settings: Settings;
  /** Its repeatable flags, in the command line and --help after its settings. */
  readonly lists?: readonly AnyListSpec[];
  /** Its part of Config, from its settings as read. */
  config(parsed: ParsedOf<Settings>, context: ConfigContext): Own;
  /** Lines to log at start for settings that are valid but most likely not meant. */
  warnings?(own: Own): string[];
  /**
   * The page of docs/ that documents its settings and metrics in the README's table format, for a source whose
   * tables would crowd the README (the record's); without it, the README documents them.
   */
  readonly docs?: string;
  /** Every metric table of the slice: the README (or its `docs` page) must document each metric. */
  readonly metrics: readonly Readonly<Record<string, MetricSpec>>[];
  /**
   * Sockets its pool holds: as many as it may have requests in flight. 0 for a source that asks CityAir through
   * the pool of the source named in `sharesPoolOf`.
   */
  sockets(own: Own): number;
  /** The source whose pool it uses; CityAir sees one client there, so a pause it asks for holds both. */
  readonly sharesPoolOf?: string;
  /** Its fragment of the status page after the collectors' health, as HTML it escapes itself. */
  statusSection?(part: C): (nowMs: number) => string;
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
  C extends SourcePart,
>(
  entry: SourceEntry<Name, Settings, Own, C>,
): SourceEntry<Name, Settings, Own, C> => entry;
