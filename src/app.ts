// The composition root: wires one run together, lower layers first (upstream, collectors, metrics, HTTP server).
// Nothing is bound late: each piece is built from pieces that already exist.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { type Config, POSTS_PATH } from './boundaries/config.js';
import type { BuildFacts } from './boundaries/package-info.js';
import { Secret } from './boundaries/secret.js';
import { createReadingsCollector, type ReadingsCollector } from './collectors/readings.js';
import { createStationCollector } from './collectors/stations.js';
import { type Simulator, startSimulator } from './demo/simulator.js';
import { demoPostsAt } from './demo/stations.js';
import { buildServer } from './http/server.js';
import { READING_METRICS } from './metrics/catalog.js';
import { createExporterMetrics } from './metrics/exporter-registry.js';
import { readingsSource } from './metrics/readings-source.js';
import { createRequestCounters } from './metrics/request-counters.js';
import type { ScrapeSource } from './metrics/scrape.js';
import { stationSource } from './metrics/station-source.js';
import { createUpstreamClient, type UpstreamClient } from './upstream/client.js';
import { createDispatcher, type UpstreamDispatcher } from './upstream/dispatcher.js';

export interface RunningExporter {
  /** The address actually bound, e.g. http://127.0.0.1:9610 (port 0 picks a free one). */
  readonly url: string;
  readonly close: () => Promise<void>;
}

export async function startExporter(
  config: Config,
  build: BuildFacts,
  log: Logger,
): Promise<RunningExporter> {
  // Both may throw ConfigError (exit 2), so they run before anything is started. The web config code is loaded
  // only when a file is given: yaml and bcryptjs cost memory that most installations never use. The demo's
  // simulator is local: no proxy, no extra CA.
  const web = config.web.configFile
    ? (await import('./web/security.js')).createWebSecurity(config.web.configFile, log)
    : undefined;
  const route = config.demo ? undefined : createDispatcher(config.upstream, process.env, { log });
  const demo = config.demo ? await startDemoUpstream(log) : undefined;
  const upstream = demo
    ? {
        ...config.upstream,
        baseUrl: demo.sim.baseUrl,
        postsUrl: `${demo.sim.baseUrl}${POSTS_PATH}`,
        apiKey: demo.key,
      }
    : config.upstream;
  const clientOptions = { ...upstream, userAgent: `cityair-exporter/${build.version}` };
  const client = createUpstreamClient({
    ...clientOptions,
    ...(route ? { dispatcher: route.dispatcher } : {}),
  });
  const metrics = createExporterMetrics({ ...build, nodeVersion: process.version });
  const stations = createStationCollector({
    fetchStations: client.fetchStations,
    policy: upstream,
    log,
    onRequest: metrics.recordStationRequest,
  });
  const sources: ScrapeSource[] = [stationSource(stations, upstream.maxAgeMs)];
  const readings = config.measurements.enabled
    ? startReadings(config, clientOptions, stations, metrics.registry, log)
    : undefined;
  if (readings) sources.push(readings.source);

  const app = buildServer({
    config,
    log,
    stations,
    readings: readings?.collector,
    scrape: { sources, registry: metrics.registry },
    version: build.version,
    revision: build.revision,
    web,
  });
  const bound = await listen(app, config.web.host, config.web.port);
  // A wildcard bind is reachable on localhost; say so in a form a person can click.
  const url = bound.replace(/\/\/(\[::\]|0\.0\.0\.0)(?=:)/, '//localhost');
  web?.attach(app.server);
  log.info(
    {
      address: url,
      telemetry_path: config.web.telemetryPath,
      upstream: demo ? 'demo simulator' : upstream.baseUrl,
      mode: upstream.refreshIntervalMs > 0 ? 'background' : 'on-demand',
      readings: config.measurements.enabled,
      version: build.version,
    },
    'cityair-exporter listening',
  );
  stations.start();
  // Readings ask only for listed stations: the first round waits for the first station list.
  if (readings) void stations.firstData.then(readings.collector.start);

  return {
    url,
    close: async () => {
      web?.close();
      await app.close();
      await readings?.collector.stop();
      await stations.stop();
      await readings?.close();
      await client.close();
      await route?.dispatcher.close();
      await demo?.sim.close();
    },
  };
}

/**
 * The readings collector with a client of its own, whose pool holds --measurements.concurrency connections, so a
 * round never queues the station list's request behind its own.
 */
function startReadings(
  config: Config,
  upstream: Parameters<typeof createUpstreamClient>[0],
  stations: ReturnType<typeof createStationCollector>,
  registry: Parameters<typeof createRequestCounters>[0],
  log: Logger,
): { collector: ReadingsCollector; source: ScrapeSource; close: () => Promise<void> } {
  const { concurrency } = config.measurements;
  const route: UpstreamDispatcher | undefined = config.demo
    ? undefined
    : createDispatcher(config.upstream, process.env, { connections: concurrency });
  const client: UpstreamClient = createUpstreamClient({
    ...upstream,
    connections: concurrency,
    ...(route ? { dispatcher: route.dispatcher } : {}),
  });
  // Made only with the collector on: with it off, no readings series exist at all.
  const counters = createRequestCounters(registry, READING_METRICS);
  const collector = createReadingsCollector({
    fetchMeasurements: client.fetchMeasurements,
    stationList: () => stations.state().current?.data,
    settings: config.measurements,
    maxBackoffMs: config.upstream.maxBackoffMs,
    log,
    onRequest: counters.record,
  });
  const source = readingsSource(collector, stations, {
    readingsMs: config.measurements.maxAgeMs,
    stationsMs: config.upstream.maxAgeMs,
  });
  return {
    collector,
    source,
    close: async () => {
      await client.close();
      await route?.dispatcher.close();
    },
  };
}

async function startDemoUpstream(log: Logger): Promise<{ sim: Simulator; key: Secret }> {
  const key = randomBytes(16).toString('hex');
  const sim = await startSimulator({ posts: (now) => demoPostsAt(now), apiKey: key });
  log.warn(
    { simulator: sim.baseUrl },
    'demo mode: serving SIMULATED stations from the built-in simulator, not CityAir data',
  );
  return { sim, key: new Secret(key) };
}

async function listen(
  app: ReturnType<typeof buildServer>,
  host: string | undefined,
  port: number,
): Promise<string> {
  if (host !== undefined) return app.listen({ host, port });
  // ":port" means every interface: IPv6 dual-stack where the machine has it, else IPv4.
  try {
    return await app.listen({ host: '::', port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL') throw error;
    return app.listen({ host: '0.0.0.0', port });
  }
}
