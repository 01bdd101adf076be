// The demo's simulator with the controls tests and the benchmark need: any failure the exporter must survive, for
// the whole list or one station's readings, fixed answers, and counts of what was asked. None of this ships: the
// demo runs the plain simulator.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { READINGS_INTERVAL_MS, type ReadingsInterval } from '../../src/config/setting-values.js';
import { demoReadingsAnswer, demoRow } from '../../src/demo/readings.js';
import {
  type Intercept,
  type Simulator as PlainSimulator,
  type SimulatorOptions,
  startSimulator as startPlainSimulator,
} from '../../src/demo/simulator.js';
import { type ApiBehaviour, type ApiMemory, answerTimes } from './api-behaviour.js';

export type Fault =
  | { readonly kind: 'none' }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string; readonly body?: string }
  /** Headers after delayMs, then the normal answer. */
  | { readonly kind: 'slow'; readonly delayMs: number }
  /** Headers at once, then the body stalls forever. */
  | { readonly kind: 'stall-body' }
  /** Accepts the request and never answers. */
  | { readonly kind: 'hang' }
  /** Closes the connection without an answer. */
  | { readonly kind: 'reset' }
  /** A 200 with this exact body (invalid JSON, an HTML page, a wrong shape...). */
  | {
      readonly kind: 'body';
      readonly body: string | Buffer;
      readonly contentType?: string;
      readonly contentEncoding?: string;
    }
  /** A 200 JSON array of `bytes` bytes, optionally without Content-Length (chunked). */
  | { readonly kind: 'huge'; readonly bytes: number; readonly chunked?: boolean };

export interface Simulator extends PlainSimulator {
  readonly setFault: (fault: Fault) => void;
  /** Requests received on the Posts path since start (or since resetCount). */
  readonly requestCount: () => number;
  readonly resetCount: () => void;
  /** Headers of the last request on the Posts path. */
  readonly lastHeaders: () => IncomingMessage['headers'] | undefined;
  /** Fixes one station's readings answer (any JSON); undefined goes back to the source. */
  readonly setReadings: (id: number, answer: unknown) => void;
  /** A fault for one station's readings only; undefined clears it. */
  readonly setReadingsFault: (id: number, fault: Fault | undefined) => void;
  /** Station ids of the readings requests received, in order (unknown ids too), since start or reset. */
  readonly readingsLog: () => readonly number[];
  /** The query of the last readings request, as sent. */
  readonly lastReadingsQuery: () => URLSearchParams | undefined;
  /** The most readings requests seen in flight at once, since start or reset. */
  readonly maxConcurrentReadings: () => number;
  readonly resetReadingsLog: () => void;
  /**
   * Late rows: a station that lost its connection at `fromMs`. Its rows from then on are not served (CityAir does
   * not have them yet) until `release(id)`, when it is back and has uploaded its buffer.
   */
  readonly holdBack: (id: number, fromMs: number) => void;
  readonly release: (id: number) => void;
  /**
   * Readings requests that carried date__lt (the walk's: backfill and record; the live readings send none), of
   * the stations `ids` (all when unset).
   */
  readonly walkRequests: (ids?: readonly number[]) => number;
}

const MAX_LOG = 200_000;

/**
 * Readings served as an API of `behaviour` would serve them (test/support/api-behaviour.ts): each station's rows
 * are at `times(id, stepMs)`, with the demo's values at those times.
 */
export interface ApiOption {
  readonly behaviour: ApiBehaviour;
  readonly times: (id: number, stepMs: number) => readonly number[];
}

export async function startSimulator(
  options: Omit<SimulatorOptions, 'intercept'> & { readonly api?: ApiOption },
): Promise<Simulator> {
  let fault: Fault = { kind: 'none' };
  let count = 0;
  let headers: IncomingMessage['headers'] | undefined;
  const fixedReadings = new Map<number, unknown>();
  const readingsFaults = new Map<number, Fault>();
  let readingsLog: number[] = [];
  let lastReadingsQuery: URLSearchParams | undefined;
  let readingsInFlight = 0;
  let maxReadingsInFlight = 0;
  const apiState = new Map<number, { requests: number; memory: ApiMemory }>();
  const heldBack = new Map<number, number>();
  const walkRequests = new Map<number, number>();

  const intercept: Intercept = (req, res, route, proceed) => {
    if (route.kind === 'posts') {
      count++;
      headers = req.headers;
      serveWithFault(req, res, fault, () => proceed());
      return;
    }
    // A long run keeps the latest entries only (a round of the benchmark fits many times).
    if (readingsLog.length >= MAX_LOG) readingsLog = readingsLog.slice(MAX_LOG / 2);
    readingsLog.push(route.id);
    lastReadingsQuery = route.url.searchParams;
    readingsInFlight++;
    maxReadingsInFlight = Math.max(maxReadingsInFlight, readingsInFlight);
    res.on('close', () => {
      readingsInFlight--;
    });
    if (route.url.searchParams.has('date__lt'))
      walkRequests.set(route.id, (walkRequests.get(route.id) ?? 0) + 1);
    const held = heldBack.get(route.id);
    const fixed = fixedReadings.has(route.id)
      ? fixedReadings.get(route.id)
      : held !== undefined
        ? withoutRowsFrom(route.id, route.url.searchParams, held)
        : options.api && apiAnswer(route.id, route.url.searchParams, options.api, apiState);
    serveWithFault(req, res, readingsFaults.get(route.id) ?? { kind: 'none' }, () => proceed(fixed));
  };

  const sim = await startPlainSimulator({ ...options, intercept });
  return {
    ...sim,
    setFault: (f) => {
      fault = f;
    },
    requestCount: () => count,
    resetCount: () => {
      count = 0;
    },
    lastHeaders: () => headers,
    setReadings: (id, answer) => {
      if (answer === undefined) fixedReadings.delete(id);
      else fixedReadings.set(id, answer);
    },
    setReadingsFault: (id, f) => {
      if (f === undefined) readingsFaults.delete(id);
      else readingsFaults.set(id, f);
    },
    readingsLog: () => [...readingsLog],
    lastReadingsQuery: () => lastReadingsQuery,
    maxConcurrentReadings: () => maxReadingsInFlight,
    resetReadingsLog: () => {
      readingsLog = [];
      maxReadingsInFlight = readingsInFlight;
    },
    holdBack: (id, fromMs) => {
      heldBack.set(id, fromMs);
    },
    release: (id) => {
      heldBack.delete(id);
    },
    walkRequests: (ids) =>
      [...walkRequests].reduce((sum, [id, n]) => sum + (ids === undefined || ids.includes(id) ? n : 0), 0),
  };
}

/** The demo's answer for a station whose rows from `fromMs` on have not reached the API yet. */
function withoutRowsFrom(id: number, params: URLSearchParams, fromMs: number): unknown {
  const interval = params.get('interval') ?? '5m';
  if (!Object.hasOwn(READINGS_INTERVAL_MS, interval)) return undefined;
  const gt = Date.parse(params.get('date__gt') ?? '');
  const answer = demoReadingsAnswer(id, Date.now(), {
    interval: interval as ReadingsInterval,
    dateGtMs: Number.isNaN(gt) ? undefined : gt,
  });
  return { ...answer, data: answer.data.filter((row) => Date.parse(row.date) < fromMs) };
}

/** The answer of an API of `api.behaviour` to one readings request; undefined for a query it cannot read. */
function apiAnswer(
  id: number,
  params: URLSearchParams,
  api: ApiOption,
  state: Map<number, { requests: number; memory: ApiMemory }>,
): unknown {
  const interval = params.get('interval') ?? '5m';
  if (!Object.hasOwn(READINGS_INTERVAL_MS, interval)) return undefined;
  const stepMs = READINGS_INTERVAL_MS[interval as ReadingsInterval];
  const time = (name: string): number | undefined => {
    const text = params.get(name);
    return text === null ? undefined : Date.parse(text);
  };
  const { meta } = demoReadingsAnswer(id, Date.now(), {
    interval: interval as ReadingsInterval,
    dateGtMs: Date.now(),
  });
  const station = state.get(id) ?? { requests: 0, memory: {} };
  station.requests++;
  state.set(id, station);
  const times = answerTimes(
    api.times(id, stepMs),
    time('date__gt'),
    time('date__lt'),
    api.behaviour,
    station.requests,
    station.memory,
  );
  return { meta, data: times.map((t) => demoRow(id, t)) };
}

function serveWithFault(req: IncomingMessage, res: ServerResponse, f: Fault, send: () => void): void {
  switch (f.kind) {
    case 'none':
      send();
      return;
    case 'status': {
      const h: Record<string, string> = { 'content-type': 'application/json' };
      if (f.retryAfter !== undefined) h['retry-after'] = f.retryAfter;
      res.writeHead(f.status, h).end(f.body ?? `{"error":"simulated ${f.status}"}`);
      return;
    }
    case 'slow': {
      const t = setTimeout(send, f.delayMs);
      res.on('close', () => clearTimeout(t));
      return;
    }
    case 'stall-body':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      return;
    case 'hang':
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'body': {
      const h: Record<string, string> = { 'content-type': f.contentType ?? 'application/json' };
      if (f.contentEncoding) h['content-encoding'] = f.contentEncoding;
      res.writeHead(200, h).end(f.body);
      return;
    }
    case 'huge':
      sendHuge(res, f.bytes, f.chunked ?? false);
      return;
  }
}

function sendHuge(res: ServerResponse, bytes: number, chunked: boolean): void {
  const element = Buffer.from('{"id":1,"name":"x","isOnline":true},'.repeat(2048));
  const h: Record<string, string | number> = { 'content-type': 'application/json' };
  if (!chunked) h['content-length'] = bytes;
  res.writeHead(200, h);
  let sent = 0;
  const pump = (): void => {
    while (sent < bytes) {
      const n = Math.min(element.length, bytes - sent);
      sent += n;
      if (!res.write(element.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('error', () => undefined);
  pump();
}
