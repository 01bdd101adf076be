// The HTTP face of the exporter: /metrics, a landing page and health probes, nothing else.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../boundaries/config.js';
import type { ExporterMetrics } from '../metrics/exporter-registry.js';
import { servable } from '../refresh/policy.js';
import type { Refresher } from '../refresh/refresher.js';
import type { WebSecurity } from '../web/security.js';
import { renderLandingPage } from './landing-page.js';
import { metricsHandler } from './metrics-route.js';

export interface ServerDeps {
  readonly config: Config;
  readonly log: Logger;
  readonly refresher: Refresher;
  readonly metrics: ExporterMetrics;
  readonly version: string;
  /** --web.config.file: TLS options, basic auth and headers. */
  readonly web?: WebSecurity | undefined;
}

export function buildServer(deps: ServerDeps): FastifyInstance {
  const { config, log, refresher, metrics } = deps;
  const policy = config.upstream;
  // With --web.config.file TLS, node:https serves instead of node:http; the API of the instance is the same.
  const app = Fastify({
    logger: false,
    return503OnClosing: true,
    bodyLimit: 1024,
    https: deps.web?.httpsOptions ?? null,
  });
  // Auth and the configured headers come first, so that every answer (404s and errors included) carries them.
  if (deps.web) app.addHook('onRequest', deps.web.onRequest);

  // A keep-alive connection that turns idle after close() began would hold the exit for the keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  app.addHook('onResponse', async (req, reply) => {
    log.debug(
      { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });
  app.setNotFoundHandler((_req, reply) =>
    reply.code(404).type('text/plain; charset=utf-8').send('not found\n'),
  );
  app.setErrorHandler((error, req, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) log.error({ err: error, url: req.url }, 'request failed');
    reply
      .code(status)
      .type('text/plain; charset=utf-8')
      .send(status >= 500 ? 'internal error\n' : 'bad request\n');
  });

  app.get(config.web.telemetryPath, metricsHandler(config, refresher, metrics));

  app.get('/', async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(
      renderLandingPage({
        version: deps.version,
        telemetryPath: config.web.telemetryPath,
        upstream: config.demo ? 'built-in simulator' : config.upstream.baseUrl,
        demo: config.demo,
        state: refresher.state(),
        policy,
        nowMs: Date.now(),
      }),
    ),
  );

  app.get('/healthz', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('ok\n'));

  app.get('/readyz', async (_req, reply) => {
    const state = refresher.state();
    if (servable(state, Date.now(), policy)) return reply.type('text/plain; charset=utf-8').send('ready\n');
    const why = state.snapshot ? 'data older than --upstream.max-age' : 'no successful refresh yet';
    return reply.code(503).type('text/plain; charset=utf-8').send(`not ready: ${why}\n`);
  });

  return app;
}
