// The Prometheus HTTP query API (Prometheus, VictoriaMetrics, Thanos Query, Mimir): series lists, and raw samples
// read with a range selector in an instant query (`m{...}[86400000ms]`), which every one of them answers with the
// stored samples themselves. Answers are parsed with zod; credentials as the backfill's remote write takes them.
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { credentialsOf, type HttpTarget, redact, targetHeaders, targetTls } from '../backfill/http-target.js';
import { armTimer } from '../runtime/timers.js';
import { joined, readBody } from '../upstream/body.js';
import { Agent, request } from '../upstream/undici-parts.js';

export type StoreTarget = HttpTarget;

export type Labels = Readonly<Record<string, string>>;

export interface StoreSeries {
  readonly labels: Labels;
  /** [ms, value] in time order. */
  readonly samples: readonly { readonly atMs: number; readonly value: number }[];
}

export interface Store {
  /** Label sets of the series matching `selector` with samples in [fromMs, toMs]. */
  readonly series: (selector: string, fromMs: number, toMs: number) => Promise<Labels[]>;
  /** The raw samples of `selector` in (atMs - rangeMs, atMs] (a store may also give one at atMs - rangeMs). */
  readonly samples: (selector: string, atMs: number, rangeMs: number) => Promise<StoreSeries[]>;
  /**
   * A range query: `expr` at every `stepMs` from fromMs to toMs. Results are never taken from a store's cache
   * (VictoriaMetrics caches past ranges, and the record writes into the past).
   */
  readonly range: (expr: string, fromMs: number, toMs: number, stepMs: number) => Promise<StoreSeries[]>;
  readonly queries: () => number;
  readonly close: () => Promise<void>;
}

export class StoreError extends Error {}

const labels = z.record(z.string(), z.string());
const failure = z.object({ status: z.literal('error'), error: z.string().optional() });
// A store that could not reach all of its parts still answers: VictoriaMetrics' cluster with isPartial, Thanos
// (when partial responses are allowed) with warnings. Part of the data is no data a signed report may rest on.
const partial = { isPartial: z.boolean().optional(), warnings: z.array(z.string()).optional() };
const seriesAnswer = z.union([
  z.object({ status: z.literal('success'), data: z.array(labels), ...partial }),
  failure,
]);
const sampleValue = z.tuple([z.number(), z.string()]);
const queryAnswer = z.union([
  z.object({
    status: z.literal('success'),
    data: z.object({
      resultType: z.literal('matrix'),
      result: z.array(z.object({ metric: labels, values: z.array(sampleValue) })),
    }),
    ...partial,
  }),
  failure,
]);

const RETRIES = 2;

/**
 * The most bytes of one answer read: the record's and the report's queries are cut so that an answer is a few MB
 * at most (held.ts, report/read.ts), and a store that answers without end (or a proxy's error page that never
 * ends) must cost a failed query, not the exporter's memory.
 */
export const STORE_MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface StoreOptions {
  /** The cap on one answer's bytes (tests); STORE_MAX_BODY_BYTES by default. */
  readonly maxBodyBytes?: number;
}

export function openStore(target: StoreTarget, userAgent: string, options: StoreOptions = {}): Store {
  const maxBodyBytes = options.maxBodyBytes ?? STORE_MAX_BODY_BYTES;
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 2, connect: targetTls(target) });
  const base = target.url.replace(/\/+$/, '').replace(/\/api\/v1(\/.*)?$/, '');
  let queries = 0;

  const post = async (path: string, form: Record<string, string>): Promise<unknown> => {
    for (let attempt = 0; ; attempt++) {
      queries++;
      const outcome = await postOnce(`${base}${path}`, form, target, userAgent, dispatcher, maxBodyBytes);
      if (outcome.ok) return outcome.body;
      if (!outcome.retryable || attempt >= RETRIES) throw new StoreError(outcome.message);
      await new Promise<void>((resolve) => armTimer(resolve, 1000 * 2 ** attempt));
    }
  };

  return {
    series: async (selector, fromMs, toMs) => {
      const body = await post('/api/v1/series', {
        'match[]': selector,
        start: seconds(fromMs),
        end: seconds(toMs),
        partial_response: 'false',
      });
      const answer = seriesAnswer.safeParse(body);
      if (!answer.success) throw new StoreError('the series answer is not the Prometheus API’s');
      if (answer.data.status === 'error') throw new StoreError(answer.data.error ?? 'the store refused');
      whole(answer.data);
      return answer.data.data;
    },
    samples: async (selector, atMs, rangeMs) => {
      const body = await post('/api/v1/query', {
        query: `${selector}[${Math.round(rangeMs)}ms]`,
        time: seconds(atMs),
        // Thanos Query: fail rather than answer without a store it could not reach.
        partial_response: 'false',
      });
      return matrixOf(body);
    },
    range: async (expr, fromMs, toMs, stepMs) => {
      const body = await post('/api/v1/query_range', {
        query: expr,
        start: seconds(fromMs),
        end: seconds(toMs),
        step: `${Math.max(1, Math.round(stepMs / 1000))}s`,
        partial_response: 'false',
        nocache: '1',
      });
      return matrixOf(body);
    },
    queries: () => queries,
    close: () => dispatcher.close(),
  };
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function matrixOf(body: unknown): StoreSeries[] {
  const answer = queryAnswer.safeParse(body);
  if (!answer.success) throw new StoreError('the query answer is not a matrix of the Prometheus API');
  if (answer.data.status === 'error') throw new StoreError(answer.data.error ?? 'the store refused');
  whole(answer.data);
  return answer.data.data.result.map((r) => ({
    labels: r.metric,
    samples: r.values.map(([t, v]) => ({ atMs: Math.round(t * 1000), value: Number(v) })),
  }));
}

function whole(answer: { isPartial?: boolean | undefined; warnings?: string[] | undefined }): void {
  if (answer.isPartial) throw new StoreError('the store answered with part of the data (isPartial)');
  if (answer.warnings && answer.warnings.length > 0)
    throw new StoreError(`the store warned: ${answer.warnings.join('; ').slice(0, 300)}`);
}

type Outcome =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly retryable: boolean; readonly message: string };

async function postOnce(
  url: string,
  form: Record<string, string>,
  target: StoreTarget,
  userAgent: string,
  dispatcher: Dispatcher,
  maxBodyBytes: number,
): Promise<Outcome> {
  let secrets: string[] = [];
  try {
    const headers = headersFor(target, userAgent);
    secrets = credentialsOf(headers.authorization, undefined);
    const res = await request(url, {
      method: 'POST',
      dispatcher,
      headers,
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    const host = new URL(url).host;
    const text = await capped(res, maxBodyBytes);
    if (text === undefined)
      return {
        ok: false,
        // The same query would bring the same flood: not asked again in this round.
        retryable: false,
        message: `${host} answered more than ${Math.round(maxBodyBytes / 1024 / 1024)} MiB to one query: the answer was dropped unread`,
      };
    if (res.statusCode >= 200 && res.statusCode < 300) {
      try {
        return { ok: true, body: JSON.parse(text) as unknown };
      } catch {
        return { ok: false, retryable: true, message: `${host} did not answer JSON` };
      }
    }
    const said = redact(text, secrets).slice(0, 300).replace(/\s+/g, ' ').trim();
    return {
      ok: false,
      retryable: res.statusCode >= 500 || res.statusCode === 429,
      message: `HTTP ${res.statusCode} from ${host}${said ? `: ${said}` : ''}`,
    };
  } catch (error) {
    const e = error as Error & { cause?: Error };
    return {
      ok: false,
      retryable: true,
      message: redact(`${e.name}: ${e.cause?.message ?? e.message}`, secrets),
    };
  }
}

/** The answer's text, or undefined once it passes `max` bytes (compressed or not): the rest is never read. */
async function capped(res: Dispatcher.ResponseData, max: number): Promise<string | undefined> {
  if (Number(res.headers['content-length']) > max) {
    // Destroyed unread: the abort it raises is this, not a failure of its own.
    res.body.on('error', () => undefined).destroy();
    return undefined;
  }
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const body = await readBody(res.body, encoding, max);
  if ('problem' in body) {
    if (body.problem === 'too_large') return undefined;
    throw new Error(`the answer's ${body.encoding} encoding could not be read`);
  }
  return joined(body).toString('utf8');
}

function headersFor(target: StoreTarget, userAgent: string): Record<string, string> {
  return {
    ...targetHeaders(target),
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
    'user-agent': userAgent,
  };
}

/** A PromQL selector: the metric name regex, and each label as an exact match, values quoted. */
export function selectorOf(
  names: readonly string[],
  matchers: readonly (readonly [string, string])[],
): string {
  const parts = [`__name__=~${JSON.stringify(names.map(escapeRegex).join('|'))}`];
  for (const [name, value] of matchers) parts.push(`${name}=${JSON.stringify(value)}`);
  return `{${parts.join(',')}}`;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
