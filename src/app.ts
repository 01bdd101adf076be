// The composition root: the upstream (a pool per source, as wide as it asks), then the collectors of the registry
// of sources (sources.ts), then the HTTP server over that list. Nothing is bound late: each piece is built from
// pieces that already exist.
import type { Logger } from 'pino';
import type { Config } from './cli.js';
import type { BuildFacts } from './config/package-info.js';
import { createExporterRegistry } from './exposition/exporter-registry.js';
import { buildServer } from './http/server.js';
import { buildCollectors, type PoolName, SOURCE_LIST, socketsOf } from './sources.js';
import { createStatusPage } from './status/handler.js';
import { openApi, type UpstreamPools } from './upstream/pools.js';

export interface RunningExporter {
  /** The address actually bound, e.g. http://127.0.0.1:9610 (port 0 picks a free one). */
  readonly url: string;
  /** Answers the requests under way and stops the timers; upstream requests still running are abandoned. */
  readonly close: () => Promise<void>;
}

export async function startExporter(
  config: Config,
  build: BuildFacts,
  log: Logger,
): Promise<RunningExporter> {
  // Both may throw ConfigError (exit 2), so they run before anything is started. The web config code is loaded
  // only when a file is given: yaml and bcryptjs cost memory that most installations never use.
  const web = config.web.configFile
    ? (await import('./web/security.js')).createWebSecurity(config.web.configFile, log)
    : undefined;
  const upstream = await openUpstream(config, build, log);
  const registry = createExporterRegistry({ ...build, nodeVersion: process.version });
  const userAgent = `cityair-exporter/${build.version}`;
  const { collectors, workers, built, sections } = await buildCollectors({
    config,
    upstream,
    registry,
    log,
    userAgent,
  });

  const statusPage = createStatusPage({ config, ...build, collectors, built, sections });
  const app = buildServer({ config, log, collectors, registry, statusPage, web });
  const bound = await listen(app, config.web.host, config.web.port);
  // A wildcard bind is reachable on localhost; say so in a form a person can click.
  const url = bound.replace(/\/\/(\[::\]|0\.0\.0\.0)(?=:)/, '//localhost');
  web?.attach(app.server);
  log.info(
    {
      address: url,
      telemetry_path: config.web.telemetryPath,
      upstream: config.demo ? 'demo simulator' : config.upstream.baseUrl,
      mode: config.upstream.refreshIntervalMs > 0 ? 'background' : 'on-demand',
      // Which sources run: `readings: false` when that collector is off, as before the registry.
      ...Object.fromEntries(SOURCE_LIST.map((source) => [source.name, built[source.name] !== undefined])),
      version: build.version,
    },
    'cityair-exporter listening',
  );
  for (const c of collectors) c.start();
  for (const w of workers) w.start();

  return {
    url,
    close: async () => {
      web?.close();
      // Every scrape is answered here, those waiting for a refresh included: they stop waiting (server.ts).
      await app.close();
      // A request to the API still running would only bring data that nobody will be served: the collectors'
      // timers stop, and the caller exits without waiting for it.
      for (const c of collectors) void c.stop();
      for (const w of workers) void w.stop();
      upstream.close().catch(() => undefined);
    },
  };
}

/**
 * The connections to the API: a pool per source, as wide as its entry asks (pools.ts says why they are apart),
 * or with --demo to the built-in simulator.
 */
function openUpstream(config: Config, build: BuildFacts, log: Logger): Promise<UpstreamPools<PoolName>> {
  return openApi({
    settings: config.upstream,
    userAgent: `cityair-exporter/${build.version}`,
    sockets: socketsOf(config),
    env: process.env,
    log,
    ...(config.demo && {
      simulated: {
        start: async (apiKey: string) => {
          const [{ startSimulator }, { demoStationsAt }] = await Promise.all([
            import('./demo/simulator.js'),
            import('./demo/stations.js'),
          ]);
          return startSimulator({ posts: (now) => demoStationsAt(now), apiKey });
        },
        warning: 'demo mode: serving SIMULATED stations from the built-in simulator, not CityAir data',
      },
    }),
  });
}

/** The listen address cannot be had; main prints the one line and exits 1. */
export class ListenError extends Error {}

const LISTEN_PROBLEMS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the address is already in use (another process, or a second copy of this one, holds it)',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'this machine has no such address',
};

async function listen(
  app: ReturnType<typeof buildServer>,
  host: string | undefined,
  port: number,
): Promise<string> {
  try {
    return await listenOn(app, host, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const where = `${host === undefined ? '' : host.includes(':') ? `[${host}]` : host}:${port}`;
    throw new ListenError(
      `cannot listen on ${where}: ${LISTEN_PROBLEMS[code] ?? (error as Error).message}; choose another with --web.listen-address (CITYAIR_LISTEN_ADDRESS)`,
    );
  }
}

async function listenOn(
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
