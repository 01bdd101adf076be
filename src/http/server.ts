// The HTTP face of the exporter: /metrics, a status page and health probes, nothing else.
import { setMaxListeners } from 'node:events';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Collector } from '../collector/contract.js';
import type { EngineConfig } from '../config/config.js';
import type { WebSecurity } from '../web/security.js';
import { metricsHandler } from './metrics-route.js';

/** GET /: a page built by a slice above the server, which knows nothing of what it shows. */
export interface HtmlPage {
  readonly csp: string;
  readonly render: (nowMs: number, rawQuery: unknown) => string;
}

export interface ServerDeps {
  readonly config: Pick<EngineConfig, 'upstream' | 'web'>;
  readonly log: Logger;
  /** Each adds its part to /metrics; readiness waits for those that gate it. */
  readonly collectors: readonly Collector[];
  readonly registry: Registry;
  readonly statusPage: HtmlPage;
  /** --web.config.file: TLS options, basic auth and headers. */
  readonly web?: WebSecurity | undefined;
}

export function buildServer(deps: ServerDeps): FastifyInstance {
  const { config, log, collectors } = deps;
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
  // A scrape waiting for a refresh stops waiting: it answers now with the data there is, instead of being cut off
  // when the process exits before the API answers.
  let closing = false;
  const closed = new AbortController();
  // One listener per scrape waiting for a refresh, each removed when its wait ends: as many as scrapes in flight.
  setMaxListeners(0, closed.signal);
  app.addHook('preClose', async () => {
    closing = true;
    closed.abort();
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
      sources: collectors.map((c) => c.source),
      registry: deps.registry,
      upstreamTimeoutMs: config.upstream.timeoutMs,
      timeoutOffsetMs: config.web.timeoutOffsetMs,
      closing: closed.signal,
    }),
  );

  app.get('/', async (req, reply) => {
    const page = deps.statusPage.render(Date.now(), req.query);
    // A Content-Security-Policy from --web.config.file is the operator's choice and stays; the page reads
    // without its script and style.
    if (!reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', deps.statusPage.csp);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
  });

  app.get('/healthz', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('ok\n'));

  app.get('/readyz', async (_req, reply) => {
    const nowMs = Date.now();
    const waiting = collectors
      .filter((c) => c.gatesReadiness)
      .map((c) => c.health(nowMs))
      .find((h) => !h.serving);
    if (!waiting) return reply.type('text/plain; charset=utf-8').send('ready\n');
    const why =
      waiting.lastSuccessMs === undefined
        ? `no successful refresh of the ${waiting.name} yet`
        : `the ${waiting.name} is older than its max-age`;
    return reply.code(503).type('text/plain; charset=utf-8').send(`not ready: ${why}\n`);
  });

  return app;
}
