// The one place that composes a scrape: each source's cached bytes, then the per-scrape series (every source's
// live part and prom-client's registry), in the negotiated format, gzipped when the client accepts it. A new
// collector joins by handing in one more source; nothing here changes.
import type { Registry } from 'prom-client';
import type { RefreshWait } from '../refresh/refresher.js';
import { gzipSplice } from './gzip-splice.js';
import type { Format } from './negotiation.js';
import { textToOpenMetrics } from './openmetrics.js';
import type { RenderedPart } from './rendered-part.js';

/** One source's share of a scrape, from its collector's state read once. */
export interface SourcePart {
  /** Families rendered once per piece of data; undefined while nothing may be served. */
  readonly cached: RenderedPart | undefined;
  /** Families computed per scrape (text format), e.g. cityair_up. */
  readonly live: string;
}

export interface ScrapeSource {
  /** An on-demand collector refreshes here, within the scrape's deadline. */
  readonly beforeScrape?: (waitMs: number) => Promise<RefreshWait>;
  /** Synchronous, so every source sees the states of one instant. */
  readonly collect: (nowMs: number, wait: RefreshWait) => SourcePart;
}

export interface ScrapeRequest {
  readonly waitMs: number;
  readonly format: Format;
  readonly gzip: boolean;
  /** Ends every wait for a refresh early when it aborts (the server is closing). */
  readonly stopWaiting?: AbortSignal | undefined;
}

export async function composeScrape(
  sources: readonly ScrapeSource[],
  registry: Registry,
  request: ScrapeRequest,
  now: () => number = Date.now,
): Promise<Buffer[]> {
  const { waitMs, stopWaiting } = request;
  const waits = await Promise.all(
    sources.map((s) =>
      unlessStopped(s.beforeScrape?.(waitMs) ?? Promise.resolve<RefreshWait>('settled'), stopWaiting),
    ),
  );
  const nowMs = now();
  const parts = sources.map((s, i) => s.collect(nowMs, waits[i] ?? 'settled'));
  const own = `${parts.map((p) => p.live).join('')}${await registry.metrics()}`;
  const tail = Buffer.from(
    request.format === 'openmetrics' ? `${textToOpenMetrics(own)}# EOF\n` : own,
    'utf8',
  );
  const cached = parts.flatMap((p) => (p.cached ? [p.cached] : []));
  if (!request.gzip) return [...cached.map((c) => c.text), tail];
  return gzipSplice(await Promise.all(cached.map((c) => c.deflated())), tail);
}

/**
 * The wait, or 'still-running' as soon as the signal aborts. The signal lives as long as the server, so the
 * listener leaves with the wait: a promise or listener hung on it per scrape would stay until the process ends
 * (a `.then` or `Promise.race` on a never-settled promise kept about 0.9 MiB per 1,000 scrapes).
 */
function unlessStopped(wait: Promise<RefreshWait>, signal: AbortSignal | undefined): Promise<RefreshWait> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.resolve('still-running');
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve('still-running');
    signal.addEventListener('abort', onAbort, { once: true });
    wait.then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
