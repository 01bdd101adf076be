// Remote write: samples gathered per series until a request is full, then sent (protobuf + Snappy) and waited
// for before more are taken, so memory holds one request at most and each series reaches the receiver in time
// order. 5xx, 429 and network failures are retried with backoff (Retry-After honoured); any other refusal (a
// 400 for samples older than the receiver accepts, a 401) stops the run with the receiver's own words.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { armTimer } from '../refresh/clock.js';
import { parseRetryAfter } from '../upstream/failure.js';
import type { RemoteWriteTarget } from './config.js';
import { encodeWriteRequest, type WireSeries, wireLabels } from './remote-write-proto.js';
import { backoffMs } from './retry.js';
import { forEachSample, type Series } from './samples.js';
import type { Sink, StationWriter } from './sink.js';

export interface RemoteWriteOptions {
  readonly retries: number;
  readonly maxBackoffMs: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

interface Pending {
  readonly labels: WireSeries['labels'];
  samples: { value: number; timestamp: number }[];
}

export async function remoteWriteSink(
  target: RemoteWriteTarget,
  userAgent: string,
  options: RemoteWriteOptions,
): Promise<Sink> {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 1, connect: tlsFor(target) });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => armTimer(r, ms)));
  let pending = new Map<Series, Pending>();
  let count = 0;
  let sending: Promise<void> = Promise.resolve();
  let failed: Error | undefined;

  const send = async (batch: Map<Series, Pending>): Promise<void> => {
    const body = encodeWriteRequest([...batch.values()]);
    for (let attempt = 0; ; attempt++) {
      const outcome = await post(target, userAgent, dispatcher, body);
      if (outcome.ok) return;
      if (!outcome.retryable || attempt >= options.retries)
        throw new Error(`remote write: ${outcome.message}`);
      await sleep(
        outcome.retryAfterMs ??
          backoffMs(attempt, { maxBackoffMs: options.maxBackoffMs, random: Math.random }),
      );
    }
  };

  /** Hands the gathered samples to the sender (one request in flight) and waits for it. */
  const flush = async (): Promise<void> => {
    if (count === 0) return sending;
    const batch = pending;
    pending = new Map();
    count = 0;
    sending = sending
      .then(() => (failed ? undefined : send(batch)))
      .catch((error: Error) => {
        failed ??= error;
      });
    await sending;
    if (failed) throw failed;
  };

  const station = (series: Parameters<Sink['station']>[0]): StationWriter => ({
    write: async (rows) => {
      if (failed) throw failed;
      let samples = 0;
      for (const { reading } of rows) {
        forEachSample(reading, series, (s, value) => {
          let p = pending.get(s);
          if (p === undefined) {
            p = { labels: wireLabels(s.family.name, s.labels), samples: [] };
            pending.set(s, p);
          }
          p.samples.push({ value, timestamp: reading.atMs });
          samples++;
        });
      }
      count += samples;
      if (count >= target.maxSamplesPerSend) await flush();
      return samples;
    },
  });

  return {
    station,
    finish: async () => {
      try {
        await flush();
      } finally {
        await dispatcher.close();
      }
    },
    abort: async () => {
      pending = new Map();
      count = 0;
      await dispatcher.destroy();
    },
  };
}

type PostOutcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly retryable: boolean;
      readonly message: string;
      readonly retryAfterMs?: number;
    };

async function post(
  target: RemoteWriteTarget,
  userAgent: string,
  dispatcher: Agent,
  body: Uint8Array,
): Promise<PostOutcome> {
  try {
    const res = await request(target.url, {
      method: 'POST',
      dispatcher,
      headers: headersFor(target, userAgent),
      body,
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    const text = (await res.body.text()).slice(0, 300).replace(/\s+/g, ' ').trim();
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true };
    const retryable = res.statusCode >= 500 || res.statusCode === 429;
    const header = res.headers['retry-after'];
    const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now());
    const message = `HTTP ${res.statusCode} from ${new URL(target.url).host}${text ? `: ${text}` : ''}`;
    return retryAfterMs === undefined
      ? { ok: false, retryable, message }
      : { ok: false, retryable, message, retryAfterMs };
  } catch (error) {
    const e = error as Error & { cause?: Error };
    return { ok: false, retryable: true, message: `${e.name}: ${e.cause?.message ?? e.message}` };
  }
}

function headersFor(target: RemoteWriteTarget, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of target.headers) headers[name.toLowerCase()] = value;
  // Files are read at each request, so a rotated token is picked up during a long run.
  if (target.basicAuth) {
    const password = readFileSync(target.basicAuth.passwordFile, 'utf8').trim();
    headers.authorization = `Basic ${Buffer.from(`${target.basicAuth.username}:${password}`).toString('base64')}`;
  }
  if (target.bearerTokenFile)
    headers.authorization = `Bearer ${readFileSync(target.bearerTokenFile, 'utf8').trim()}`;
  return {
    ...headers,
    'content-type': 'application/x-protobuf',
    'content-encoding': 'snappy',
    'x-prometheus-remote-write-version': '0.1.0',
    'user-agent': userAgent,
  };
}

function tlsFor(target: RemoteWriteTarget): { ca?: string[] } {
  if (target.caFile === undefined) return {};
  // An explicit `ca` replaces Node's trust store instead of adding to it, so the defaults go in first.
  return { ca: [...rootCertificates, readFileSync(target.caFile, 'utf8')] };
}
