// The remote-write sink against a receiver on loopback, in process: what it sends, how it batches, retries and
// stops, and that the receiver's words reach the run's error without a credential in them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uncompress } from 'snappyjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteWriteTarget } from '../../src/backfill/config.js';
import { decodeWriteRequest } from '../../src/backfill/remote-write-proto.js';
import { remoteWriteSink } from '../../src/backfill/remote-write-sink.js';
import type { RowReading } from '../../src/readings/schema.js';
import { plainStation } from '../support/station-list.js';

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly series: {
    labels: { name: string; value: string }[];
    samples: { value: number; timestamp: number }[];
  }[];
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A receiver answering each request with the next status of `statuses` (the last one repeating). */
async function receiver(statuses: readonly [number, string][]) {
  const received: Received[] = [];
  let n = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const decoded = decodeWriteRequest(Buffer.concat(chunks), (b) => uncompress(b)) as {
        timeseries: Received['series'];
      };
      received.push({ headers: req.headers, series: decoded.timeseries });
      const [status, body] = statuses[Math.min(n++, statuses.length - 1)] as [number, string];
      res.writeHead(status).end(body);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/v1/write`, received };
}

const target = (url: string, over: Partial<RemoteWriteTarget> = {}): RemoteWriteTarget => ({
  kind: 'remote-write',
  url,
  basicAuth: undefined,
  bearerTokenFile: undefined,
  headers: [['X-Scope-OrgID', 'air']],
  caFile: undefined,
  timeoutMs: 5000,
  maxSamplesPerSend: 1000,
  ...over,
});

const T = Date.UTC(2026, 9, 1);
/** Rows of one reading each (pm2.5 only): three samples per row with the timestamp and info series. */
const rows = (n: number): RowReading[] =>
  Array.from({ length: n }, (_, i) => ({
    reading: {
      id: 7,
      atMs: T + i * 300_000,
      concentrations: new Map([['pm2.5', 10 + i]]),
      temperatureCelsius: undefined,
      humidityRatio: undefined,
      pressurePascals: undefined,
      aqi: new Map(),
    },
    skipped: [],
  }));

const options = { retries: 2, maxBackoffMs: 10, sleep: async () => {} };

describe('remoteWriteSink', () => {
  it('sends the samples as remote write 1.0, each series in time order, with the target’s headers', async () => {
    const r = await receiver([[204, '']]);
    const sink = await remoteWriteSink(target(r.url), 'cityair-exporter/test', options);
    const writer = sink.station(plainStation(7), [['job', 'backfill']]);
    expect(await writer.write(rows(2))).toBe(6);
    await sink.finish();
    expect(r.received).toHaveLength(1);
    const [request] = r.received;
    expect(request?.headers).toMatchObject({
      'content-type': 'application/x-protobuf',
      'content-encoding': 'snappy',
      'x-prometheus-remote-write-version': '0.1.0',
      'user-agent': 'cityair-exporter/test',
      'x-scope-orgid': 'air',
    });
    const pm = request?.series.find((s) => s.labels.some((l) => l.value === 'pm2.5'));
    expect(pm?.labels).toEqual([
      { name: '__name__', value: 'cityair_concentration_micrograms_per_cubic_meter' },
      { name: 'id', value: '7' },
      { name: 'job', value: 'backfill' },
      { name: 'substance', value: 'pm2.5' },
    ]);
    expect(pm?.samples).toEqual([
      { value: 10, timestamp: T },
      { value: 11, timestamp: T + 300_000 },
    ]);
    expect(sink.acceptedSamples?.()).toBe(6);
    expect(writer.unwrittenFromMs?.()).toBeUndefined();
  });

  it('sends a request the moment it holds --remote-write.batch samples', async () => {
    const r = await receiver([[200, '']]);
    const sink = await remoteWriteSink(target(r.url, { maxSamplesPerSend: 4 }), 'ua', options);
    await sink.station(plainStation(7), []).write(rows(3));
    await sink.finish();
    expect(r.received.map((q) => q.series.reduce((n, s) => n + s.samples.length, 0))).toEqual([4, 4, 1]);
  });

  it('asks again after a 5xx, and counts the samples once accepted', async () => {
    const r = await receiver([
      [503, 'busy'],
      [500, 'oops'],
      [204, ''],
    ]);
    const sink = await remoteWriteSink(target(r.url), 'ua', options);
    await sink.station(plainStation(7), []).write(rows(1));
    await sink.finish();
    expect(r.received).toHaveLength(3);
    expect(sink.acceptedSamples?.()).toBe(3);
  });

  it('stops at a refusal with the receiver’s words, no credential in them, and says what is unwritten', async () => {
    const r = await receiver([[400, 'out of order sample; echo: Authorization: Bearer tok-secret-1']]);
    const token = join(mkdtempSync(join(tmpdir(), 'cityair-rw-')), 'token');
    writeFileSync(token, 'tok-secret-1');
    const sink = await remoteWriteSink(target(r.url, { bearerTokenFile: token }), 'ua', options);
    const writer = sink.station(plainStation(7), []);
    await writer.write(rows(2));
    const error = await sink.finish().catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^remote write: HTTP 400 from 127\.0\.0\.1:\d+: out of order sample/,
    );
    expect((error as Error).message).not.toContain('tok-secret-1');
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.headers.authorization).toBe('Bearer tok-secret-1');
    expect(writer.unwrittenFromMs?.()).toBe(T);
    expect(sink.acceptedSamples?.()).toBe(0);
  });
});
