// Remote write: samples gathered per series until a request is full, then sent (protobuf + Snappy) and waited
// for before more are taken, so memory holds one request at most and each series reaches the receiver in time
// order. 5xx, 429 and network failures are retried with backoff (Retry-After honoured); any other refusal (a
// 400 for samples older than the receiver accepts, a 401) stops the run with the receiver's own words.

import type { Dispatcher } from 'undici';
import type { Secret } from '../config/secret.js';
import { armTimer } from '../runtime/timers.js';
import { parseRetryAfter } from '../upstream/failure.js';
import { Agent, request } from '../upstream/undici-parts.js';
import type { RemoteWriteTarget } from './config.js';
import { credentialsOf, redact, targetHeaders, targetTls } from './http-target.js';
import { encodeWriteRequest, type WireSeries, wireLabels } from './remote-write-proto.js';
import { retryBackoffMs } from './retry.js';
import { forEachSample, type Series, stationSeries } from './samples.js';
import type { Sink, StationWriter } from './sink.js';

export interface RemoteWriteOptions {
  readonly retries: number;
  readonly maxBackoffMs: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** The API key, also taken out of the receiver's words (a proxy may echo anything). */
  readonly secret?: Secret;
}

interface Pending {
  readonly labels: WireSeries['labels'];
  samples: { value: number; timestamp: number }[];
}

/** One request's worth of samples, and for each station writing into it the earliest time it holds. */
interface Batch {
  readonly series: Map<Series, Pending>;
  readonly earliest: Map<object, number>;
  samples: number;
}

const newBatch = (): Batch => ({ series: new Map(), earliest: new Map(), samples: 0 });

export async function remoteWriteSink(
  target: RemoteWriteTarget,
  userAgent: string,
  options: RemoteWriteOptions,
): Promise<Sink> {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 1, connect: targetTls(target) });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => armTimer(r, ms)));
  let pending = newBatch();
  // Batches not (yet) accepted: what the run reports as unwritten if the receiver refuses one.
  const unaccepted = new Set<Batch>([pending]);
  let accepted = 0;
  let sending: Promise<void> = Promise.resolve();
  let failed: Error | undefined;

  const send = async (batch: Batch): Promise<void> => {
    const body = encodeWriteRequest([...batch.series.values()]);
    for (let attempt = 0; ; attempt++) {
      const outcome = await post(target, userAgent, dispatcher, body, options.secret);
      if (outcome.ok) {
        accepted += batch.samples;
        unaccepted.delete(batch);
        return;
      }
      if (!outcome.retryable || attempt >= options.retries)
        throw new Error(`remote write: ${outcome.message}`);
      await sleep(
        outcome.retryAfterMs ??
          retryBackoffMs(attempt, { maxBackoffMs: options.maxBackoffMs, random: Math.random }),
      );
    }
  };

  /** Hands the gathered samples to the sender (one request in flight) and waits for it. */
  const flush = async (): Promise<void> => {
    if (pending.samples === 0) return sending;
    const batch = pending;
    pending = newBatch();
    unaccepted.add(pending);
    sending = sending
      .then(() => (failed ? undefined : send(batch)))
      .catch((error: Error) => {
        failed ??= error;
      });
    await sending;
    if (failed) throw failed;
  };

  const station: Sink['station'] = (of, labels): StationWriter => {
    const series = stationSeries(of, labels, (s: Series) => s);
    const owner = {};
    return {
      write: async (rows) => {
        if (failed) throw failed;
        let samples = 0;
        // One row's samples at a time, so that a request is sent the moment it is full, mid-answer if need be:
        // no request carries more than the cap, whatever the size of an answer.
        const row: { series: Series; value: number; timestamp: number }[] = [];
        const visit = (s: Series, value: number, timestamp: number): void => {
          row.push({ series: s, value, timestamp });
        };
        for (const { reading } of rows) {
          row.length = 0;
          forEachSample(reading, series, visit);
          for (const sample of row) {
            const batch = pending;
            let p = batch.series.get(sample.series);
            if (p === undefined) {
              p = { labels: wireLabels(sample.series.family.name, sample.series.labels), samples: [] };
              batch.series.set(sample.series, p);
            }
            p.samples.push({ value: sample.value, timestamp: sample.timestamp });
            if (!batch.earliest.has(owner)) batch.earliest.set(owner, sample.timestamp);
            batch.samples++;
            samples++;
            if (batch.samples >= target.maxSamplesPerSend) await flush();
          }
        }
        return samples;
      },
      unwrittenFromMs: () => {
        let earliest: number | undefined;
        for (const batch of unaccepted) {
          const at = batch.earliest.get(owner);
          if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
        }
        return earliest;
      },
    };
  };

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
      pending.series.clear();
      await dispatcher.destroy();
    },
    acceptedSamples: () => accepted,
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
  dispatcher: Dispatcher,
  body: Uint8Array,
  apiKey: Secret | undefined,
): Promise<PostOutcome> {
  let secrets: string[] = [];
  try {
    const headers = headersFor(target, userAgent);
    secrets = credentialsOf(headers.authorization, apiKey);
    const res = await request(target.url, {
      method: 'POST',
      dispatcher,
      headers,
      body,
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    // A receiver may echo the request, Authorization header included: the credentials go before the cut, or a
    // cut could leave half of one that no longer matches.
    const text = redact(await res.body.text(), secrets)
      .slice(0, 300)
      .replace(/\s+/g, ' ')
      .trim();
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
    const message = redact(`${e.name}: ${e.cause?.message ?? e.message}`, secrets).slice(0, 300);
    return { ok: false, retryable: true, message };
  }
}

function headersFor(target: RemoteWriteTarget, userAgent: string): Record<string, string> {
  return {
    ...targetHeaders(target),
    'content-type': 'application/x-protobuf',
    'content-encoding': 'snappy',
    'x-prometheus-remote-write-version': '0.1.0',
    'user-agent': userAgent,
  };
}
