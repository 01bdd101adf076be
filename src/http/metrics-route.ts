// GET /metrics: the scrape's deadline and format from the request, then the composed exposition.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { acceptsGzip, CONTENT_TYPES, negotiateFormat } from '../exposition/negotiation.js';
import { composeScrape, type ScrapeSource } from '../exposition/scrape.js';
import { scrapeWaitMs } from './scrape-request.js';

// Above this, the parts are streamed as they are instead of copied into one buffer per scrape.
const CONCAT_LIMIT = 256 * 1024;

export interface MetricsRouteDeps {
  readonly sources: readonly ScrapeSource[];
  readonly registry: Registry;
  /** A scrape never waits longer than one upstream request may take. */
  readonly upstreamTimeoutMs: number;
  readonly timeoutOffsetMs: number;
  /** Aborts when the server begins to close: scrapes then stop waiting for refreshes. */
  readonly closing?: AbortSignal;
}

export function metricsHandler(deps: MetricsRouteDeps) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const format = negotiateFormat(req.headers.accept);
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    const waitMs = scrapeWaitMs(
      req.headers['x-prometheus-scrape-timeout-seconds'],
      deps.upstreamTimeoutMs,
      deps.timeoutOffsetMs,
    );
    const parts = await composeScrape(deps.sources, deps.registry, {
      waitMs,
      format,
      gzip,
      stopWaiting: deps.closing,
    });
    const length = parts.reduce((n, p) => n + p.length, 0);
    reply.header('content-type', CONTENT_TYPES[format]).header('vary', 'Accept, Accept-Encoding');
    if (gzip) reply.header('content-encoding', 'gzip');
    if (length <= CONCAT_LIMIT) return reply.send(Buffer.concat(parts, length));
    reply.header('content-length', length);
    return reply.send(Readable.from(parts, { objectMode: false }));
  };
}
