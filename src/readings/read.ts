// A station's readings: one GET of /harvester/v2/Posts/{id}/measurements, validated by the slice's own schema.
import { POSTS_PATH } from '../config/config.js';
import type { Upstream } from '../upstream/exchange.js';
import { failure, type Result } from '../upstream/failure.js';
import { type ParsedReadings, parseReadings, type ReadingsInterval } from './schema.js';

export interface ReadingsQuery {
  readonly interval: ReadingsInterval;
  /** Rows strictly after this Unix time (ms) are asked for; sent as UTC without milliseconds. */
  readonly dateGtMs: number;
}

/** One station's readings as a function, so a round of reads needs no network in its tests. */
export type FetchReadings = (id: number, query: ReadingsQuery) => Promise<Result<ParsedReadings>>;

/** `now` is the exporter's clock at the moment an answer is read: rows dated ahead of it are not served. */
export function readReadings(
  upstream: Pick<Upstream, 'getJson'>,
  now: () => number = Date.now,
): FetchReadings {
  return async (id, query) => {
    const path = readingsPath(id, query);
    if (path === undefined) return failure('invalid_payload', `station id ${id} is not a usable integer`);
    return upstream.getJson(path, (json) => parseReadings(id, json, now()));
  };
}

/** Ids come from the validated station list; anything else, or a time that is not one, sends no request. */
export function readingsPath(id: number, query: ReadingsQuery): string | undefined {
  if (!Number.isSafeInteger(id) || !Number.isFinite(query.dateGtMs)) return undefined;
  const dateGt = new Date(query.dateGtMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(dateGt)) return undefined;
  // The colons stay as they are (legal in a query), as the public clients send them.
  const search = `interval=${encodeURIComponent(query.interval)}&date__gt=${dateGt}`;
  return `${POSTS_PATH}/${encodeURIComponent(String(id))}/measurements?${search}`;
}
