// The HTTP face of the exporter: /metrics, a status page and health probes, nothing else.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../boundaries/config.js';
import { parseStatusQuery } from '../boundaries/status-query.js';
import type { ReadingsCollector } from '../collectors/readings.js';
import { servable } from '../collectors/refresh-policy.js';
import type { StationCollector } from '../collectors/stations.js';
import type { WebSecurity } from '../web/security.js';
import { type MetricsRouteDeps, metricsHandler } from './metrics-route.js';
import { statusViewOf } from './status-adapter.js';
import { renderStatusPage, STATUS_PAGE_CSP } from './status-page.js';

export interface ServerDeps {
  readonly config: Config;
  readonly log: Logger;
  /** Readiness and the status page look at the station list. */
  readonly stations: Pick<StationCollector, 'state'>;
  /** The status page shows readings when the readings collector is on. */
  readonly readings?: Pick<ReadingsCollector, 'state'> | undefined;
  readonly scrape: Pick<MetricsRouteDeps, 'sources' | 'registry'>;
  readonly version: string;
  readonly revision: string;
  /** --web.config.file: TLS options, basic auth and headers. */
  readonly web?: WebSecurity | undefined;
}

export function buildServer(deps: ServerDeps): FastifyInstance {
  const { config, log, stations } = deps;
  const { maxAgeMs } = config.upstream;
  const statusView = statusViewOf(deps);
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

  app.get(
    config.web.telemetryPath,
    metricsHandler({
      ...deps.scrape,
      upstreamTimeoutMs: config.upstream.timeoutMs,
      timeoutOffsetMs: config.web.timeoutOffsetMs,
    }),
  );

  app.get('/', async (req, reply) => {
    const page = renderStatusPage(statusView(Date.now()), parseStatusQuery(req.query));
    // A Content-Security-Policy from --web.config.file is the operator's choice and stays; the page reads
    // without its script and style.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', STATUS_PAGE_CSP);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
  });

  app.get('/healthz', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('ok\n'));

  app.get('/readyz', async (_req, reply) => {
    const state = stations.state();
    if (servable(state, Date.now(), maxAgeMs)) return reply.type('text/plain; charset=utf-8').send('ready\n');
    const why = state.current ? 'data older than --upstream.max-age' : 'no successful refresh yet';
    return reply.code(503).type('text/plain; charset=utf-8').send(`not ready: ${why}\n`);
  });

  return app;
}

/** What the status page shows, from the station collector's state. */
