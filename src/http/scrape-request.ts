// What a scrape request tells us: Prometheus' own deadline for it.
import { z } from 'zod';

const seconds = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/)
  .transform(Number)
  .refine((n) => n > 0 && Number.isFinite(n));

/**
 * How long this scrape may wait for a refresh: Prometheus' X-Prometheus-Scrape-Timeout-Seconds less the offset
 * (time to render and send the answer), never more than the upstream timeout. A missing or malformed header
 * leaves the upstream timeout.
 */
export function scrapeWaitMs(
  header: string | string[] | undefined,
  upstreamTimeoutMs: number,
  offsetMs: number,
): number {
  const value = Array.isArray(header) ? header[0] : header;
  // Most scrapes by hand carry no header: skip building a zod error for them.
  if (value === undefined) return upstreamTimeoutMs;
  const parsed = seconds.safeParse(value);
  if (!parsed.success) return upstreamTimeoutMs;
  return Math.max(0, Math.min(upstreamTimeoutMs, parsed.data * 1000 - offsetMs));
}
