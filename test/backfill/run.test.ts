// A whole run in-process: fake station list and rows, a sink that records, or the real remote-write sink against
// a receiver on loopback; what arrives and what the run says is missing.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { remoteWriteSink } from '../../src/backfill/remote-write-sink.js';
import { type RunOptions, runBackfill } from '../../src/backfill/run.js';
import type { Sink } from '../../src/backfill/sink.js';
import { newStats } from '../../src/backfill/stats.js';
import type { ReadingsQuery } from '../../src/readings/read.js';
import type { ParsedRows, RowReading } from '../../src/readings/schema.js';
import type { Result } from '../../src/upstream/failure.js';
import { plainStation } from '../support/station-list.js';

const STEP = 300_000;
const DAY = 86_400_000;
const FROM = Date.UTC(2026, 9, 1);
const TO = FROM + 10 * DAY;

const row = (id: number, atMs: number): RowReading => ({
  reading: {
    id,
    atMs,
    concentrations: new Map([['pm2.5', 1]]),
    temperatureCelsius: undefined,
    humidityRatio: undefined,
    pressurePascals: undefined,
    aqi: new Map(),
  },
  skipped: [],
});

const every5m = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let t = from; t < to; t += STEP) out.push(t);
  return out;
};

interface FakeStation {
  readonly times: readonly number[];
  readonly honoursDateLt: boolean;
}

function fetchRows(stations: ReadonlyMap<number, FakeStation>) {
  return async (id: number, q: ReadingsQuery): Promise<Result<ParsedRows>> => {
    const s = stations.get(id) as FakeStation;
    const lt = q.dateLtMs ?? Number.POSITIVE_INFINITY;
    const rows = s.times.filter((t) => t > q.dateGtMs && (!s.honoursDateLt || t < lt)).slice(0, 500);
    return { ok: true, value: { rows: rows.map((t) => row(id, t)), rejectedRows: 0 } };
  };
}

function recordingSink(seen: Map<number, number[]>): Sink {
  return {
    station: () => ({
      write: async (rows) => {
        for (const { reading } of rows) seen.set(reading.id, [...(seen.get(reading.id) ?? []), reading.atMs]);
        return rows.length;
      },
    }),
    finish: async () => undefined,
    abort: async () => undefined,
  };
}

function options(stations: ReadonlyMap<number, FakeStation>, sink: Sink, concurrency = 1): RunOptions {
  let now = 0;
  return {
    fetchStations: async () => ({
      ok: true,
      value: {
        stations: [...stations.keys()].map((id) => plainStation(id)),
        rejected: { invalid: 0, duplicate: 0 },
        problems: [],
        fieldProblems: [],
      },
    }),
    fetchRows: fetchRows(stations),
    sink,
    stats: newStats(0),
    fromMs: FROM,
    toMs: TO,
    interval: '5m',
    intervalMs: STEP,
    only: undefined,
    concurrency,
    labels: [],
    retries: 0,
    maxBackoffMs: 1000,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    random: () => 1,
    log: { info: () => undefined, warn: () => undefined },
  };
}

describe('a backfill run', () => {
  it("reads past a station's gap even when another station's answers ignore date__lt", async () => {
    // Station 1 is read first and overshoots every window; station 2 is off for three days in the middle.
    const gapped = [...every5m(FROM, FROM + 2 * DAY), ...every5m(FROM + 5 * DAY, TO)];
    const stations = new Map<number, FakeStation>([
      [1, { times: every5m(FROM, TO), honoursDateLt: false }],
      [2, { times: gapped, honoursDateLt: true }],
    ]);
    const seen = new Map<number, number[]>();
    const result = await runBackfill(options(stations, recordingSink(seen)));
    expect(result).toEqual({ ok: true, failed: [] });
    expect(seen.get(1)).toEqual(every5m(FROM, TO));
    expect(seen.get(2)).toEqual(gapped);
  });
});

describe('a run into remote write that the receiver refuses part way', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('says what was accepted and lists every station with what it misses', async () => {
    const statuses = [204, 204, 204, 500];
    let calls = 0;
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(statuses[calls++] ?? 500).end());
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const sink = await remoteWriteSink(
      {
        kind: 'remote-write',
        url: `http://127.0.0.1:${port}/api/v1/write`,
        basicAuth: undefined,
        bearerTokenFile: undefined,
        headers: [],
        caFile: undefined,
        timeoutMs: 5000,
        maxSamplesPerSend: 288 * 3,
      },
      'test',
      { retries: 0, maxBackoffMs: 10 },
    );
    const full = every5m(FROM, FROM + DAY);
    const stations = new Map<number, FakeStation>([
      [1, { times: full, honoursDateLt: true }],
      [2, { times: full, honoursDateLt: true }],
      [3, { times: full, honoursDateLt: true }],
      [4, { times: full, honoursDateLt: true }],
      [5, { times: full, honoursDateLt: true }],
    ]);
    const o = { ...options(stations, sink), toMs: FROM + DAY };
    const result = await runBackfill(o);
    await sink.abort();
    if (!result.ok) throw new Error('expected the run to report the stations');
    // A day is one answer of 288 rows (three samples each), a request's worth: stations 1 to 3 were accepted.
    expect(result.sinkFailure).toEqual({
      message: expect.stringContaining('HTTP 500'),
      acceptedSamples: 3 * 288 * 3,
    });
    expect(calls).toBe(4);
    expect(result.failed.map((f) => [f.id, f.missingFromMs])).toEqual([
      [4, FROM],
      [5, FROM],
    ]);
    expect(result.failed.every((f) => f.failure.reason === 'not_written')).toBe(true);
  });
});
