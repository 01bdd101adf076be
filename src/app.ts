// Wires the pieces together for one run: upstream (real or simulated), refresher, metrics, HTTP server.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { type Config, POSTS_PATH } from './boundaries/config.js';
import type { BuildFacts } from './boundaries/package-info.js';
import { Secret } from './boundaries/secret.js';
import { type Simulator, startSimulator } from './demo/simulator.js';
import { demoPostsAt } from './demo/stations.js';
import { buildServer } from './http/server.js';
import { createExporterMetrics } from './metrics/exporter-registry.js';
import { createRefresher } from './refresh/refresher.js';
import { createUpstreamClient } from './upstream/client.js';
import { createUpstreamRoute } from './upstream/dispatcher.js';

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
  // Both may throw ConfigError (exit 2), so they run before anything is started. The demo's simulator is local:
  // no proxy, no extra CA.
  // Loaded only with a web config file: yaml and bcryptjs cost memory that most installations never use.
  const web = config.web.configFile
    ? (await import('./web/security.js')).createWebSecurity(config.web.configFile, log)
    : undefined;
  const route = config.demo ? undefined : createUpstreamRoute(config.upstream, process.env, log);
  const demo = config.demo ? await startDemoUpstream(log) : undefined;
  const upstream = demo
    ? {
        ...config.upstream,
        baseUrl: demo.sim.baseUrl,
        postsUrl: `${demo.sim.baseUrl}${POSTS_PATH}`,
        apiKey: demo.key,
      }
    : config.upstream;
  const client = createUpstreamClient({
    ...upstream,
    userAgent: `cityair-exporter/${build.version}`,
    ...(route ? { dispatcher: route.dispatcher } : {}),
  });
  let recordAttempt: ReturnType<typeof createExporterMetrics>['recordAttempt'] = () => undefined;
  const refresher = createRefresher({
    fetchStations: client.fetchStations,
    policy: upstream,
    log,
    onAttempt: (outcome, seconds) => recordAttempt(outcome, seconds),
  });
  const metrics = createExporterMetrics(build, refresher.state);
  recordAttempt = metrics.recordAttempt;

  const app = buildServer({ config, log, refresher, metrics, version: build.version, web });
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
      version: build.version,
    },
    'cityair-exporter listening',
  );
  refresher.start();

  return {
    url,
    close: async () => {
      web?.close();
      await app.close();
      await refresher.stop();
      await client.close();
      await route?.dispatcher.close();
      await demo?.sim.close();
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
