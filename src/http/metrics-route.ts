// GET /metrics: refresh if due (within the scrape's deadline), then answer from the servable snapshot.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../boundaries/config.js';
import { scrapeWaitMs } from '../boundaries/scrape-request.js';
import type { ExporterMetrics } from '../metrics/exporter-registry.js';
import { renderScrape } from '../metrics/exposition.js';
import { acceptsGzip, CONTENT_TYPES, negotiateFormat } from '../metrics/negotiation.js';
import { servable } from '../refresh/policy.js';
import type { Refresher } from '../refresh/refresher.js';

// Above this, the parts are streamed as they are instead of copied into one buffer per scrape.
const CONCAT_LIMIT = 256 * 1024;

export function metricsHandler(config: Config, refresher: Refresher, metrics: ExporterMetrics) {
  const policy = config.upstream;
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const waitMs = scrapeWaitMs(
      req.headers['x-prometheus-scrape-timeout-seconds'],
      policy.timeoutMs,
      config.web.timeoutOffsetMs,
    );
    const settled = await refresher.refreshIfDue(waitMs);
    const state = refresher.state();
    const format = negotiateFormat(req.headers.accept);
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    const parts = await renderScrape({
      snapshot: servable(state, Date.now(), policy),
      registry: metrics.registry,
      format,
      gzip,
      up: settled && state.lastAttempt !== undefined && state.lastAttempt.reason === undefined,
    });
    const length = parts.reduce((n, p) => n + p.length, 0);
    reply.header('content-type', CONTENT_TYPES[format]).header('vary', 'Accept, Accept-Encoding');
    if (gzip) reply.header('content-encoding', 'gzip');
    if (length <= CONCAT_LIMIT) return reply.send(Buffer.concat(parts, length));
    reply.header('content-length', length);
    return reply.send(Readable.from(parts, { objectMode: false }));
  };
}
