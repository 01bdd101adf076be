// The exporter's HTTP server in process, the way app.ts assembles it, over collectors a test controls: the one
// place tests build a server for fastify's inject().
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { Registry } from 'prom-client';
import { type Config, parseCli } from '../../src/cli.js';
import type { Collector } from '../../src/collector/contract.js';
import { createExporterRegistry } from '../../src/exposition/exporter-registry.js';
import { buildServer } from '../../src/http/server.js';
import type { ReadingsCollector } from '../../src/readings/collector.js';
import type { StationsCollector } from '../../src/stations/collector.js';
import { createStatusPage } from '../../src/status/handler.js';
import type { WebSecurity } from '../../src/web/security.js';

export interface InProcessOptions {
  readonly argv?: readonly string[];
  readonly build?: { readonly version: string; readonly revision: string };
  /** The collectors, built from the parsed config and the server's registry. */
  readonly collectors: (
    config: Config,
    registry: Registry,
    log: Logger,
  ) => { readonly stations: StationsCollector; readonly readings?: ReadingsCollector | undefined };
  readonly web?: WebSecurity | undefined;
  readonly processMetrics?: boolean;
}

export interface InProcess {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly registry: Registry;
  readonly stations: StationsCollector;
  readonly readings: ReadingsCollector | undefined;
}

export function configFrom(argv: readonly string[] = []): Config {
  const action = parseCli(argv, { CITYAIR_API_KEY: 'in-process-test-key' });
  if (action.kind !== 'run') throw new Error('expected a run configuration');
  return action.config;
}

export function inProcessServer(options: InProcessOptions): InProcess {
  const config = configFrom(options.argv);
  const build = options.build ?? { version: '1.2.3', revision: 'abc1234' };
  const log = pino({ level: 'silent' });
  const registry = createExporterRegistry(
    { ...build, nodeVersion: process.version },
    { processMetrics: options.processMetrics ?? true },
  );
  const { stations, readings } = options.collectors(config, registry, log);
  const collectors: Collector[] = readings ? [stations, readings] : [stations];
  const statusPage = createStatusPage({ config, ...build, collectors, built: { stations, readings } });
  const app = buildServer({ config, log, collectors, registry, statusPage, web: options.web });
  return { app, config, registry, stations, readings };
}
