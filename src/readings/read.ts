// A station's readings: one GET of /harvester/v2/Posts/{id}/measurements, validated by the slice's own schema.
import { STATIONS_PATH } from '../config/config.js';
import type { Upstream } from '../upstream/exchange.js';
import { failure, type Result } from '../upstream/failure.js';
import {
  type ParsedReadings,
  type ParsedRows,
  parseReadingRows,
  parseReadings,
  type ReadingsInterval,
} from './schema.js';

export interface ReadingsQuery {
  readonly interval: ReadingsInterval;
  /** Rows strictly after this Unix time (ms) are asked for; sent as UTC without milliseconds. */
  readonly dateGtMs: number;
  /** Sent as date__lt when set: a hint that the API may or may not honour (one client sends it). */
  readonly dateLtMs?: number;
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
    if (path === undefined) return failure('invalid_payload', unusableQuery(id, query));
    return upstream.getJson(path, (json) => parseReadings(id, json, now()));
  };
}

/** Every row of a station's answer, for reading its history (the backfill). */
export type FetchReadingRows = (id: number, query: ReadingsQuery) => Promise<Result<ParsedRows>>;

export function readReadingRows(upstream: Pick<Upstream, 'getJson'>): FetchReadingRows {
  return async (id, query) => {
    const path = readingsPath(id, query);
    if (path === undefined) return failure('invalid_payload', unusableQuery(id, query));
    return upstream.getJson(path, (json) => parseReadingRows(id, json));
  };
}

/** Why readingsPath sent nothing: the id, or a time outside what the API can be asked for. */
function unusableQuery(id: number, query: ReadingsQuery): string {
  if (!Number.isSafeInteger(id)) return `station id ${id} is not a usable integer`;
  const lt = query.dateLtMs === undefined ? '' : `, date__lt ${query.dateLtMs}`;
  return `the time asked for (date__gt ${query.dateGtMs}${lt}, Unix ms) is not one the API can be sent (years 0000 to 9999)`;
}

const utcSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The date__lt a request carries for `dateLtMs`: rounded up to a whole second, it still asks for every row before. */
export const sentDateLtMs = (dateLtMs: number): number => Math.ceil(dateLtMs / 1000) * 1000;

/** Ids come from the validated station list; anything else, or a time that is not one, sends no request. */
export function readingsPath(id: number, query: ReadingsQuery): string | undefined {
  const lt = query.dateLtMs === undefined ? [] : [sentDateLtMs(query.dateLtMs)];
  const times = [query.dateGtMs, ...lt];
  // Beyond ±8.64e15 ms a Date is invalid and toISOString throws.
  if (!Number.isSafeInteger(id) || !times.every((t) => Math.abs(t) <= 8.64e15)) return undefined;
  const [dateGt, dateLt] = times.map(utcSeconds);
  if (![dateGt, dateLt].every((t) => t === undefined || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(t)))
    return undefined;
  // The colons stay as they are (legal in a query), as the public clients send them.
  const search =
    `interval=${encodeURIComponent(query.interval)}&date__gt=${dateGt}` +
    (dateLt ? `&date__lt=${dateLt}` : '');
  return `${STATIONS_PATH}/${encodeURIComponent(String(id))}/measurements?${search}`;
}
