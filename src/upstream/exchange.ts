// The one place that talks to CityAir: GETs of JSON over one keep-alive pool, each with a deadline over the whole
// exchange and a cap on the body, answering a Result instead of throwing. The slices say which path to ask for and
// how to validate what comes back (stations/read.ts, readings/read.ts).
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { Agent, type Dispatcher, request } from 'undici';
import type { Secret } from '../config/secret.js';
import { scrub } from '../config/secret.js';
import { armTimer } from '../refresh/clock.js';
import { type Failure, failure, parseRetryAfter, type Result, reasonForStatus } from './failure.js';

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

/** What a slice makes of a decoded body: typed data, or a failure saying why the answer is unusable. */
export type Validate<T> = (json: unknown) => Result<T>;

export interface Upstream {
  /** GET base URL + path; the path comes from a slice, built from validated data only. */
  readonly getJson: <T>(path: string, validate: Validate<T>) => Promise<Result<T>>;
  readonly close: () => Promise<void>;
}

const DECODERS: Readonly<Record<string, (b: Buffer, o: { maxOutputLength: number }) => Promise<Buffer>>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

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

  const getJson = async <T>(path: string, validate: Validate<T>): Promise<Result<T>> => {
    // Not AbortSignal.timeout(): its timer and signal outlive a fast answer by the whole deadline, so on-demand
    // scrapes pile them into the old generation and RSS climbs until a full GC. A cleared timer frees them at once.
    const deadline = new AbortController();
    const cancelDeadline = armTimer(
      () => deadline.abort(new DOMException('deadline', 'TimeoutError')),
      options.timeoutMs,
    );
    try {
      return await exchange(
        `${options.baseUrl}${path}`,
        validate,
        options,
        dispatcher,
        headers,
        deadline.signal,
      );
    } catch (error) {
      return classifyError(error, deadline.signal, options);
    } finally {
      cancelDeadline();
    }
  };

  return {
    getJson,
    close: async () => (ownsDispatcher ? dispatcher.close() : undefined),
  };
}

async function exchange<T>(
  url: string,
  validate: Validate<T>,
  options: UpstreamOptions,
  dispatcher: Dispatcher,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Result<T>> {
  const res = await request(url, { method: 'GET', headers, dispatcher, signal });
  const header = (name: string): string | undefined => {
    const v = res.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  if (res.statusCode < 200 || res.statusCode > 299) {
    const excerpt = await readExcerpt(res.body);
    const retryAfterMs =
      res.statusCode === 429 || res.statusCode === 503
        ? parseRetryAfter(header('retry-after'), Date.now())
        : undefined;
    const location = header('location') ? ` to ${header('location')} (redirects are not followed)` : '';
    const message = scrub(
      `HTTP ${res.statusCode}${location}${excerpt ? `: ${excerpt}` : ''}`,
      options.apiKey,
    );
    return failure(reasonForStatus(res.statusCode), message, retryAfterMs);
  }
  const declared = Number(header('content-length'));
  if (declared > options.maxBodyBytes) {
    res.body.destroy();
    return tooLarge(options.maxBodyBytes);
  }
  const encoding = (header('content-encoding') ?? 'identity').trim().toLowerCase();
  const body = await readJson(res.body, encoding, header('content-type') ?? '', options.maxBodyBytes);
  if (!body.ok) return body;
  const result = validate(body.json);
  return result.ok ? { ...result, bytes: body.bytes } : result;
}

// The raw, decompressed and decoded body die with this frame, before validation starts: at 100,000 stations
// they are about 75 MB that would otherwise stay reachable through the peak of a refresh.
async function readJson(
  stream: Dispatcher.ResponseData['body'],
  encoding: string,
  contentType: string,
  max: number,
): Promise<{ readonly ok: true; readonly json: unknown; readonly bytes: number } | Failure> {
  const raw = await readCapped(stream, max);
  if (raw === undefined) return tooLarge(max);
  const decoded = await decode(raw, encoding, max);
  if (!Buffer.isBuffer(decoded)) return decoded;
  return parseJson(decoded, contentType);
}

function tooLarge(max: number): Failure {
  return failure('invalid_payload', `body larger than --upstream.max-body-size (${max} bytes)`);
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  const raw = await readCapped(body, 64 * 1024).catch(() => undefined);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  return (raw?.toString('utf8', 0, 200) ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

async function decode(raw: Buffer, encoding: string, max: number): Promise<Buffer | Failure> {
  if (encoding === 'identity' || encoding === '') return raw;
  const decoder = DECODERS[encoding];
  if (!decoder) return failure('invalid_payload', `unsupported content-encoding "${encoding.slice(0, 40)}"`);
  try {
    return await decoder(raw, { maxOutputLength: max });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return tooLarge(max);
    return failure('invalid_payload', `body is not valid ${encoding}: ${(error as Error).message}`);
  }
}

function parseJson(
  body: Buffer,
  contentType: string,
): { readonly ok: true; readonly json: unknown; readonly bytes: number } | Failure {
  const text = body.toString('utf8');
  try {
    return {
      ok: true,
      json: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text),
      bytes: body.length,
    };
  } catch {
    const looksHtml = /html/i.test(contentType) || /^\s*</.test(text);
    const what = looksHtml ? 'an HTML page' : 'a body that is not JSON';
    return failure('invalid_json', `expected JSON, got ${what} (content-type "${contentType.slice(0, 60)}")`);
  }
}

function classifyError(error: unknown, signal: AbortSignal, options: UpstreamOptions): Failure {
  if (signal.aborted) {
    return failure('timeout', `no complete answer within --upstream.timeout (${options.timeoutMs} ms)`);
  }
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code ?? e.name;
  const detail = e.cause?.message ?? e.message;
  return failure('network', scrub(`${code}: ${detail}`, options.apiKey));
}
