// What a run writes and says, in-process: the OpenMetrics lines of a row, the atomic file, the progress line and
// the retry command.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { BACKFILL_COMMAND_LINE } from '../../src/backfill/config.js';
import { openMetricsSink } from '../../src/backfill/openmetrics-sink.js';
import { clock, progressFigures, progressLine, startProgress } from '../../src/backfill/progress.js';
import { BACKFILL_FAMILIES } from '../../src/backfill/samples.js';
import { newStats } from '../../src/backfill/stats.js';
import {
  type ArgToken,
  invokedAs,
  retryCommand,
  retryOutput,
  summaryText,
} from '../../src/backfill/summary.js';
import { flagOptions } from '../../src/config/command-line.js';
import type { RowReading } from '../../src/readings/schema.js';
import type { Station } from '../../src/stations/schema.js';
import { failure } from '../../src/upstream/failure.js';
import { readStrictOpenMetrics } from '../support/openmetrics-strict.js';

const STATION: Station = {
  id: 1000,
  name: 'Москва, "Центр"',
  description: 'школа \\ двор',
  online: true,
  tz: 'Europe/Moscow',
  utcOffsetSeconds: 10800,
  latitude: 55.75,
  longitude: 37.61,
};

const ROW: RowReading = {
  reading: {
    id: 1000,
    atMs: Date.UTC(2026, 9, 1, 12, 5),
    concentrations: new Map([
      ['pm2.5', 12.34],
      ['no2', 20],
    ]),
    temperatureCelsius: -4.2,
    humidityRatio: 0.81,
    pressurePascals: 98991.585,
    aqi: new Map([['cityair', 3]]),
  },
  skipped: [],
};

/** Standard output as a test sees it: every byte written, once the sink is finished. */
function collected(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** The rows of one station every 5 minutes from `fromMs`, pm2.5 varying so each line is its own. */
function rowsOf(id: number, fromMs: number, n: number): RowReading[] {
  return Array.from({ length: n }, (_, i) => ({
    reading: {
      ...ROW.reading,
      id,
      atMs: fromMs + i * 300_000,
      concentrations: new Map([['pm2.5', 10 + i / 100]]),
    },
    skipped: [],
  }));
}

describe('OpenMetrics lines', () => {
  it('writes every family of a row at its time in seconds, with the station and --label labels', async () => {
    const out = collected();
    const sink = await openMetricsSink('-', out.stream);
    const samples = await sink.station(STATION, [['job', 'cityair']]).write([ROW]);
    await sink.finish();
    const t = ROW.reading.atMs / 1000;
    const j = 'job="cityair"';
    expect(
      out
        .text()
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#')),
    ).toEqual([
      `cityair_concentration_micrograms_per_cubic_meter{id="1000",substance="pm2.5",${j}} 12.34 ${t}`,
      `cityair_concentration_micrograms_per_cubic_meter{id="1000",substance="no2",${j}} 20 ${t}`,
      `cityair_temperature_celsius{id="1000",${j}} -4.2 ${t}`,
      `cityair_relative_humidity_ratio{id="1000",${j}} 0.81 ${t}`,
      `cityair_pressure_pascals{id="1000",${j}} 98991.585 ${t}`,
      `cityair_aqi{id="1000",index="cityair",${j}} 3 ${t}`,
      `cityair_measurement_timestamp_seconds{id="1000",${j}} ${t} ${t}`,
      `cityair_station_info{id="1000",name="Москва, \\"Центр\\"",description="школа \\\\ двор",tz="Europe/Moscow",${j}} 1 ${t}`,
      `cityair_station_latitude_degrees{id="1000",${j}} 55.75 ${t}`,
      `cityair_station_longitude_degrees{id="1000",${j}} 37.61 ${t}`,
    ]);
    expect(samples).toBe(10);
  });

  it('keeps each family whole and in order while stations write side by side, whatever their number', async () => {
    const out = collected();
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'cityair-spool-'));
    try {
      const sink = await openMetricsSink('-', out.stream);
      const writers = [1000, 1001, 1002].map((id) => sink.station({ ...STATION, id }, []));
      // Enough rows that every family fills several chunks, written a few rows per station in turn.
      const day = 2000;
      let written = 0;
      for (let at = 0; at < day; at += 50) {
        for (const [k, w] of writers.entries())
          written += await w.write(rowsOf(1000 + k, ROW.reading.atMs + at * 300_000, 50));
      }
      // The spools live only as open descriptors: nothing of them is in the directory.
      expect(readdirSync(process.env.TMPDIR)).toEqual([]);
      await sink.finish();
      const strict = readStrictOpenMetrics(out.text());
      expect(strict.problems).toEqual([]);
      expect(strict.families).toEqual(BACKFILL_FAMILIES.map((f) => f.name));
      expect(strict.samples).toBe(written);
      expect(written).toBe(3 * day * 9);
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
  });
});

describe('the strict OpenMetrics check', () => {
  const good = [
    '# HELP a A.',
    '# TYPE a gauge',
    'a{id="1"} 1 10',
    'a{id="2"} 1 10',
    'a{id="1"} 2 20',
    '# HELP b B.',
    '# TYPE b gauge',
    'b 1 10',
    '# EOF',
    '',
  ];
  it('takes a text that keeps the rules, and names each rule broken', () => {
    expect(readStrictOpenMetrics(good.join('\n')).problems).toEqual([]);
    const broken = (lines: string[]): readonly string[] => readStrictOpenMetrics(lines.join('\n')).problems;
    expect(broken([...good.slice(0, 8), 'a{id="1"} 3 30', ...good.slice(8)])).toEqual([
      'line 9: a outside its family (in b)',
    ]);
    expect(broken([...good.slice(0, 8), '# HELP a A.', 'a{id="1"} 3 30', ...good.slice(8)])[0]).toBe(
      'line 9: family a appears again',
    );
    expect(broken(good.map((l) => l.replace('2 20', '2 10')))).toEqual([
      'line 5: a{id="1"} goes back in time (10 after 10)',
    ]);
    expect(broken(good.map((l) => (l === 'a{id="2"} 1 10' ? 'a{id="2"} 1' : l)))).toEqual([
      'line 4: not a sample: a{id="2"} 1',
    ]);
    expect(broken(['b 1 10', '# EOF', ''])).toEqual(['line 1: b outside its family (in no family)']);
    expect(broken(good.slice(0, 8))[0]).toMatch(/does not end with "# EOF"/);
    expect(broken([...good.slice(0, 8), '# TYPE b gauge', ...good.slice(8)])).toEqual([
      'line 9: TYPE of b after its samples',
    ]);
  });
});

describe('the output file', () => {
  it('appears under its name only when finished, with # EOF last, and nothing else stays in its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-om-'));
    const path = join(dir, 'last-month.om');
    const sink = await openMetricsSink(path);
    await sink.station(STATION, []).write([ROW]);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([`.last-month.om.${process.pid}.partial`]);
    await sink.finish();
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('# HELP cityair_concentration_micrograms_per_cubic_meter ')).toBe(true);
    expect(readStrictOpenMetrics(text).problems).toEqual([]);
    expect(readdirSync(dir)).toEqual(['last-month.om']);
  });

  it('leaves nothing behind when aborted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-om-'));
    const sink = await openMetricsSink(join(dir, 'x.om'));
    await sink.station(STATION, []).write(rowsOf(1000, ROW.reading.atMs, 3000));
    await sink.abort();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('progress', () => {
  it('says stations, rows, samples, requests, failures, rate, elapsed and an estimate', () => {
    const stats = newStats(0);
    Object.assign(stats, { stationsTotal: 4, stationsDone: 1, rows: 12_000, samples: 150_000 });
    Object.assign(stats, { requests: 50, failedRequests: 2, coveredMs: 1000 });
    const line = progressLine(progressFigures(stats, 60_000, 1000));
    expect(line).toBe(
      'stations 1/4  rows 12,000  samples 150,000  requests 50 (2 failed)  200 rows/s  elapsed 1m0s  ETA 3m0s',
    );
    expect(clock(3725)).toBe('1h2m5s');
  });

  it('redraws one line in place on a terminal, and logs every 10 s elsewhere', () => {
    vi.useFakeTimers();
    try {
      const stats = newStats(0);
      let written = '';
      const logged: unknown[] = [];
      const tty = startProgress({
        stats,
        spanMs: 1,
        now: () => 1000,
        // Under some wrappers a terminal says its width is 0: the whole line is still shown.
        tty: {
          columns: 0,
          write: (t) => {
            written += t;
          },
        },
        log: () => {},
      });
      vi.advanceTimersByTime(600);
      expect(written.split('\r\x1b[K').filter(Boolean)).toHaveLength(2);
      expect(written).toContain('stations 0/0  rows 0');
      expect(written).toContain('ETA ?');
      tty.stop();
      expect(written.endsWith('\r\x1b[K')).toBe(true);
      const off = startProgress({
        stats,
        spanMs: 1,
        now: () => 1000,
        tty: undefined,
        log: (f) => logged.push(f),
      });
      vi.advanceTimersByTime(25_000);
      expect(logged).toHaveLength(2);
      off.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the summary', () => {
  it('counts a station with two spans missing once, and lists each span with its end and why', () => {
    const stats = { ...newStats(0), stationsTotal: 3 };
    const why =
      'the API answered the same newest rows (100, from 2026-10-05T00:00:00Z) whatever date__gt asked';
    const text = summaryText({
      stats,
      failed: [
        {
          id: 4,
          failure: { reason: 'not_served', message: why },
          missingFromMs: Date.UTC(2026, 9, 3, 0, 0, 0, 250),
          missingToMs: Date.UTC(2026, 9, 4),
        },
        { id: 4, failure: failure('http_5xx', 'HTTP 502'), missingFromMs: Date.UTC(2026, 9, 4, 6) },
      ],
      fromMs: Date.UTC(2026, 9, 3),
      toMs: Date.UTC(2026, 9, 6),
      nowMs: 1000,
      retry: 'cityair-exporter backfill ...',
    });
    expect(text).toContain('3 stations (2 read, 1 failed)');
    expect(text).toContain(
      `  4: not_served: ${why}; missing 2026-10-03T00:00:00.250Z to 2026-10-04T00:00:00Z\n` +
        '  4: http_5xx: HTTP 502; missing 2026-10-04T06:00:00Z to 2026-10-06T00:00:00Z\n',
    );
  });
});

describe('the retry command', () => {
  const tokens = (argv: string[]): ArgToken[] =>
    parseArgs({ args: argv, options: flagOptions(BACKFILL_COMMAND_LINE), strict: false, tokens: true })
      .tokens as ArgToken[];

  it('asks for exactly the failed stations from their earliest missing time to the same end', () => {
    const argv = [
      '--from',
      '30d',
      '--output=/data/a b.om',
      '--label',
      "job=it's",
      '--measurements.stations=1,2,3',
    ];
    const failed = [
      { id: 3, failure: failure('http_5xx', 'HTTP 500'), missingFromMs: Date.UTC(2026, 9, 5) },
      { id: 1, failure: failure('timeout', 'slow'), missingFromMs: Date.UTC(2026, 9, 3) },
    ];
    const program = invokedAs('/usr/lib/node_modules/cityair-exporter/dist/main.js', '/home/me');
    expect(retryCommand(program, tokens(argv), failed, Date.UTC(2026, 10, 1), '/data/a b.om')).toBe(
      "node /usr/lib/node_modules/cityair-exporter/dist/main.js backfill --from=2026-10-03T00:00:00Z --to=2026-11-01T00:00:00Z --measurements.stations=1,3 '--output=/data/a b.retry.om' '--label=job=it'\\''s'",
    );
  });

  it('prints --from and --to to the millisecond, to the end of the latest range missing', () => {
    const failed = [
      {
        id: 7,
        failure: { reason: 'not_served' as const, message: 'the API answered the same newest rows' },
        missingFromMs: Date.UTC(2026, 9, 3, 0, 0, 0, 1),
        missingToMs: Date.UTC(2026, 9, 4, 12, 5),
      },
      {
        id: 8,
        failure: { reason: 'not_served' as const, message: 'the API answered the same newest rows' },
        missingFromMs: Date.UTC(2026, 9, 3, 6),
        missingToMs: Date.UTC(2026, 9, 5),
      },
    ];
    expect(retryCommand(['cityair-exporter'], [], failed, Date.UTC(2026, 10, 1), undefined)).toBe(
      'cityair-exporter backfill --from=2026-10-03T00:00:00.001Z --to=2026-10-05T00:00:00Z --measurements.stations=7,8',
    );
  });

  it('starts the retry command the way this run was started', () => {
    expect(invokedAs('/srv/cityair-exporter/dist/main.js', '/srv/cityair-exporter')).toEqual([
      'node',
      'dist/main.js',
    ]);
    expect(invokedAs('/usr/local/bin/cityair-exporter', '/home/me')).toEqual(['cityair-exporter']);
    expect(invokedAs('/opt/x/node_modules/.bin/cityair-exporter', '/opt/x')).toEqual(['cityair-exporter']);
  });

  it('names the retry output next to the first', () => {
    expect(retryOutput('last-month.om')).toBe('last-month.retry.om');
    expect(retryOutput('dir.v2/out')).toBe('dir.v2/out.retry');
    expect(retryOutput('-')).toBe('-');
  });
});
