// The one place that talks to CityAir: GETs of JSON over one keep-alive pool, each with a deadline over the whole
// exchange (request, body, parse and validation) and caps on what an answer may cost, answering a Result instead
// of throwing. The slices say which path to ask for, how to validate what comes back and, where an endpoint needs
// its own, which caps apply (stations/read.ts, readings/read.ts).
import type { Dispatcher } from 'undici';
import type { Secret } from '../config/secret.js';
import { COLLECT_ABOVE_BYTES, collectDeadBuffers } from '../runtime/dead-buffers.js';
import { armTimer } from '../runtime/timers.js';
import { type Body, type BodyProblem, readBody } from './body.js';
import { type Failure, failure, parseRetryAfter, type Result, reasonForStatus } from './failure.js';
import {
  type ElementsReader,
  parseElements,
  parseWhole,
  type ReadContext,
  type Validate,
} from './json-read.js';
import { createPace } from './pace.js';
import { Agent, request } from './undici-parts.js';
import { excerpt } from './upstream-text.js';

export type { ElementSink, ElementsReader, Validate } from './json-read.js';

export interface UpstreamOptions {
  /** The API's base URL, without /harvester/v2. */
  readonly baseUrl: string;
  readonly apiKey: Secret | undefined;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly userAgent: string;
  /** Defaults to a keep-alive Agent; a proxy or a private CA (dispatcher.ts) brings its own. */
  readonly dispatcher?: Dispatcher;
  /** Sockets of the default Agent (2): as many as requests may be in flight, or they queue inside the deadline. */
  readonly connections?: number;
}

/** What one answer may cost. An endpoint whose answers are small gets caps of its own. */
export interface Limits {
  /** Decompressed body, and compressed body too, at most. */
  readonly maxBodyBytes: number;
  /** The setting behind maxBodyBytes, for the failure's message. */
  readonly maxBodySetting: string;
  /** JSON values of a body parsed whole (containers and separators counted), at most. */
  readonly maxValues: number;
}

/**
 * A whole parse of 50,000 values (about 2,000 readings rows) takes tens of milliseconds, with the slowest
 * validation (every row invalid) about 0.2 s: the most one answer may hold the event loop.
 */
export const MAX_VALUES = 50_000;

export interface Upstream {
  /** GET base URL + path, parsed whole; the path comes from a slice, built from validated data only. */
  readonly getJson: <T>(path: string, validate: Validate<T>, limits?: Partial<Limits>) => Promise<Result<T>>;
  /** GET base URL + path, a top-level array read element by element (a large list). */
  readonly getJsonElements: <T>(
    path: string,
    reader: ElementsReader<T>,
    limits?: Partial<Limits>,
  ) => Promise<Result<T>>;
  readonly close: () => Promise<void>;
}

/** Header text in a message: key out, then cut. */
const HEADER_EXCERPT = 80;
const BODY_EXCERPT = 200;

type Parse<T> = (body: Body, ctx: ReadContext) => Promise<Result<T>>;

export function createUpstream(options: UpstreamOptions): Upstream {
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ?? new Agent({ keepAliveTimeout: 60_000, connections: options.connections ?? 2 });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'gzip',
    'user-agent': options.userAgent,
  };
  const key = options.apiKey?.reveal();
  if (key) headers.authorization = `Bearer ${key}`;
  const defaults: Limits = {
    maxBodyBytes: options.maxBodyBytes,
    maxBodySetting: '--upstream.max-body-size',
    maxValues: MAX_VALUES,
  };

  const run = async <T>(path: string, limits: Limits, parse: Parse<T>): Promise<Result<T>> => {
    // Not AbortSignal.timeout(): its timer and signal outlive a fast answer by the whole deadline, so on-demand
    // scrapes pile them into the old generation and RSS climbs until a full GC. A cleared timer frees them at once.
    const deadline = new AbortController();
    const cancelDeadline = armTimer(
      () => deadline.abort(new DOMException('deadline', 'TimeoutError')),
      options.timeoutMs,
    );
    const read = { bytes: 0 };
    let result: Result<T> | undefined;
    try {
      const res = await untilAborted(
        request(`${options.baseUrl}${path}`, { method: 'GET', headers, dispatcher, signal: deadline.signal }),
        deadline.signal,
      );
      result = await answer(res, limits, options, { signal: deadline.signal, read }, parse);
    } catch (error) {
      result = classifyError(error, deadline.signal, options);
    } finally {
      cancelDeadline();
    }
    // A large body that was refused is dead once this returns, but V8 frees outside memory only at a full
    // collection it may not start for a long time: start one, so that memory returns to its level at once.
    // (A large good list is freed by the collection before its text is rendered, stations/text.ts.)
    if (!result.ok && read.bytes > COLLECT_ABOVE_BYTES) setImmediate(collectDeadBuffers);
    return result;
  };

  return {
    getJson: (path, validate, over) => {
      const limits = { ...defaults, ...over };
      return run(path, limits, (body, ctx) => parseWhole(body, validate, limits.maxValues, ctx));
    },
    getJsonElements: (path, reader, over) => {
      const limits = { ...defaults, ...over };
      return run(path, limits, (body, ctx) => parseElements(body, reader, limits.maxValues, ctx));
    },
    close: async () => (ownsDispatcher ? dispatcher.close() : undefined),
  };
}

async function answer<T>(
  res: Dispatcher.ResponseData,
  limits: Limits,
  options: UpstreamOptions,
  exchange: { readonly signal: AbortSignal; readonly read: { bytes: number } },
  parse: Parse<T>,
): Promise<Result<T>> {
  const header = (name: string): string => {
    const v = res.headers[name];
    return excerpt((Array.isArray(v) ? v[0] : v) ?? '', options.apiKey, HEADER_EXCERPT);
  };
  const encoding = header('content-encoding').trim().toLowerCase();
  if (res.statusCode < 200 || res.statusCode > 299)
    return statusFailure(res, header, encoding, options.apiKey);
  if (Number(header('content-length')) > limits.maxBodyBytes) {
    res.body.destroy();
    return tooLarge(limits);
  }
  const body = await readBody(res.body, encoding, limits.maxBodyBytes);
  if ('size' in body) exchange.read.bytes = body.size;
  if ('problem' in body) return bodyFailure(body, limits);
  const ctx: ReadContext = {
    pace: createPace(exchange.signal),
    secret: options.apiKey,
    contentType: header('content-type'),
    timedOut: () => timeout(options),
  };
  const result = await parse(body, ctx);
  return result.ok ? { ...result, bytes: body.size } : result;
}

async function statusFailure(
  res: Dispatcher.ResponseData,
  header: (name: string) => string,
  encoding: string,
  secret: Secret | undefined,
): Promise<Failure> {
  const body = await readBody(res.body, encoding, 64 * 1024).catch(() => undefined);
  // The key comes out of the whole excerpt before it is cut: cut first, a key at the cut would leave its head.
  const text = body && !('problem' in body) ? Buffer.concat(body.chunks).toString('utf8') : '';
  const shown = excerpt(text, secret, BODY_EXCERPT);
  const retryAfterMs =
    res.statusCode === 429 || res.statusCode === 503
      ? parseRetryAfter(header('retry-after'), Date.now())
      : undefined;
  const location = header('location') ? ` to ${header('location')} (redirects are not followed)` : '';
  const message = `HTTP ${res.statusCode}${location}${shown ? `: ${shown}` : ''}`;
  return failure(reasonForStatus(res.statusCode), message, retryAfterMs);
}

/**
 * The answer, or the signal's reason as soon as it aborts. undici rejects a request aborted while it waits for a
 * connection only once it gets one, which a proxy that never opens the tunnel can put off for minutes.
 */
function untilAborted<T extends { readonly body: { destroy: () => unknown } }>(
  pending: Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        // Too late: nobody reads it, and an unread body would keep its socket.
        if (signal.aborted) res.body.destroy();
        else resolve(res);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function bodyFailure(problem: BodyProblem, limits: Limits): Failure {
  if (problem.problem === 'too_large') return tooLarge(limits);
  if (problem.problem === 'unsupported_encoding') {
    return failure('invalid_payload', `unsupported content-encoding "${problem.encoding}"`);
  }
  // No JSON text comes out of it, as none comes out of a plain body cut off: the same reason for the same fault.
  return failure('invalid_json', `body is not valid ${problem.encoding}: ${problem.detail}`);
}

function tooLarge(limits: Limits): Failure {
  return failure(
    'invalid_payload',
    `body larger than ${limits.maxBodySetting} (${limits.maxBodyBytes} bytes)`,
  );
}

function timeout(options: UpstreamOptions): Failure {
  return failure('timeout', `no complete answer within --upstream.timeout (${options.timeoutMs} ms)`);
}

function classifyError(error: unknown, signal: AbortSignal, options: UpstreamOptions): Failure {
  if (signal.aborted) return timeout(options);
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code ?? e.name;
  const detail = e.cause?.message ?? e.message;
  return failure('network', excerpt(`${code}: ${detail}`, options.apiKey, BODY_EXCERPT));
}
