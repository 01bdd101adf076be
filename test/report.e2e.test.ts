// `cityair-exporter report` against real stores on loopback: known readings written as promtool blocks into a real
// Prometheus and by remote write into a real VictoriaMetrics, a day of them at live-scrape density beside
// backfilled rows; every cell of the CSV against the values worked out by hand, in both languages; the exit status
// and the incomplete mark when the store fails.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CSV_COLUMNS } from '../src/report/csv.js';
import { chromiumPath, openBrowser, TEST_OUTPUT } from './support/browser.js';
import {
  binaryPath,
  type Daemon,
  freePort,
  makeTempDir,
  startVictoriaMetrics,
  waitFor,
} from './support/daemon.js';
import { prometheusPath, type RunningPrometheus, startPrometheus } from './support/prometheus.js';
import { promtoolPath } from './support/promtool.js';
import {
  expectedIn,
  INSTANCE,
  JOB,
  NAMES,
  NO2_SAMPLES,
  parseCsv,
  REPORT_FROM,
  REPORT_TO,
  reportOpenMetrics,
  reportRemoteWrite,
  runReport,
} from './support/report-data.js';

const periodArgs = (url: string): string[] => [
  `--from=${REPORT_FROM}`,
  `--to=${REPORT_TO}`,
  `--store.url=${url}`,
  `--label=job=${JOB}`,
  `--label=instance=${INSTANCE}`,
];

/** The CSV's rows by station id, each a map of column key to cell. */
function csvByStation(text: string, lang: 'ru' | 'en'): Map<string, Record<string, string>> {
  const [header, ...rows] = parseCsv(text, lang === 'ru' ? ';' : ',');
  expect(header).toEqual(CSV_COLUMNS.map((c) => c[lang]));
  return new Map(
    rows.map((row) => [
      row[0] as string,
      Object.fromEntries(CSV_COLUMNS.map((c, i) => [c.key, row[i] ?? ''])),
    ]),
  );
}

async function expectFigures(url: string): Promise<void> {
  for (const lang of ['ru', 'en'] as const) {
    const run = await runReport([...periodArgs(url), '--format=csv', `--lang=${lang}`]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const rows = csvByStation(run.stdout, lang);
    expect([...rows.keys()]).toEqual(['101', '102']);
    expect(rows.get('101')).toEqual(expectedIn(lang, '101'));
    expect(rows.get('102')).toEqual(expectedIn(lang, '102'));
  }
  const json = await runReport([...periodArgs(url), '--format=json']);
  expect(json.code).toBe(0);
  const parsed = z
    .object({
      complete: z.boolean(),
      network: z.object({
        si: z.object({ value: z.number(), stationId: z.string(), substance: z.string() }),
        np: z.object({ value: z.number() }),
        level: z.object({ level: z.number(), setBy: z.array(z.string()) }),
      }),
    })
    .parse(JSON.parse(json.stdout));
  expect(parsed.complete).toBe(true);
  expect(parsed.network.si).toMatchObject({ value: 6, stationId: '101', substance: 'no2' });
  expect(parsed.network.np.value).toBeCloseTo((100 * 3) / 144, 10);
  // СИ 6.0 is высокий (5–10), НП 2.1 % повышенный: высокий, by СИ.
  expect(parsed.network.level).toEqual({ level: 3, setBy: ['si'] });
}

describe.skipIf(!prometheusPath() || !promtoolPath())('the report on Prometheus (promtool blocks)', () => {
  let prometheus: RunningPrometheus;

  beforeAll(async () => {
    const dir = await makeTempDir('cityair-report-blocks-');
    const file = join(dir, 'history.om');
    await writeFile(file, reportOpenMetrics());
    const blocks = join(dir, 'blocks');
    const made = spawnSync(
      promtoolPath() as string,
      ['tsdb', 'create-blocks-from', 'openmetrics', '--max-block-duration=744h', file, blocks],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`promtool: ${made.stderr}`);
    prometheus = await startPrometheus({
      scrapeConfigs: [],
      blocksFrom: blocks,
      extraArgs: ['--storage.tsdb.retention.time=10y'],
    });
  }, 60_000);

  afterAll(async () => prometheus?.stop());

  it('gives every figure of the CSV as worked out by hand, in Russian and English, and the network in JSON', async () => {
    const held = await prometheus.query(
      'count_over_time(cityair_concentration_micrograms_per_cubic_meter{id="101"}[3d])',
      Date.parse('2026-10-03T00:00:00Z') / 1000,
    );
    expect(held[0]?.value).toBe(NO2_SAMPLES);
    await expectFigures(prometheus.url);
  }, 60_000);

  it.skipIf(!chromiumPath())(
    'renders the HTML page in Chromium with no console error and no request, and prints a page per station',
    async () => {
      const dir = await makeTempDir('cityair-report-html-');
      const file = join(dir, 'report.html');
      const run = await runReport([...periodArgs(prometheus.url), `--output=${file}`]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      const session = await openBrowser();
      try {
        const { page } = session;
        await page.goto(pathToFileURL(file).href);
        const summary = await page.locator('section.summary').innerText();
        expect(summary).toContain('Уровень загрязнения: высокий (определён по СИ)');
        expect(summary).toMatch(/СИ\s+6,0\s+NO₂, Центр <b>"&' \(101\)/);
        expect(summary).toMatch(/НП\s+2,1 %/);
        expect(summary).toContain('ИЗА рассчитывается только за год.');
        // Upstream text stays text: no element came out of a station name.
        expect(await page.locator('h2 b').count()).toBe(0);
        expect(await page.locator('section.station h2').allInnerTexts()).toEqual([
          `Станция ${NAMES['101']} (101)`,
          `Станция ${NAMES['102']} (102)`,
        ]);
        expect(await page.locator('section.station svg').count()).toBe(2);
        await session.screenshot('report.png');
        const pdf = await page.pdf({ format: 'A4', printBackground: true });
        await writeFile(join(TEST_OUTPUT, 'report.pdf'), pdf);
        // The summary and notes, then each station on a page of its own.
        const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
        expect(pages).toHaveLength(3);
        expect(session.problems()).toEqual([]);
        expect(session.requests()).toEqual([pathToFileURL(file).href]);
      } finally {
        await session.close();
      }
    },
    60_000,
  );

  it('marks the station the store failed incomplete, keeps the others, says which part, and exits 1', async () => {
    // A proxy that refuses every query for station 102's samples, as an overloaded store would.
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString();
      if (req.url === '/api/v1/query' && new URLSearchParams(body).get('query')?.includes('id="102"')) {
        res.writeHead(503).end('overloaded');
        return;
      }
      const answer = await fetch(`${prometheus.url}${req.url}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
        ...(req.method === 'POST' ? { body } : {}),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as AddressInfo;
    try {
      const run = await runReport([...periodArgs(`http://127.0.0.1:${port}`), '--format=csv', '--lang=ru']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /неполный: станция 102 с 2026-10-01 00:00 UTC\+03:00 по .*HTTP 503 .*overloaded/,
      );
      const rows = csvByStation(run.stdout, 'ru');
      expect(rows.get('101')).toEqual(expectedIn('ru', '101'));
      expect(rows.get('102')?.complete).toBe('нет');
      // Nothing read is no count: empty like the other missing figures, not 0.
      expect(rows.get('102')?.days_above_pdk_ss).toBe('');
      expect(rows.get('102')?.who_days_above_24h).toBe('');
      const html = await runReport([...periodArgs(`http://127.0.0.1:${port}`), '--lang=en']);
      expect(html.code).toBe(1);
      expect(html.stdout).toContain('INCOMPLETE REPORT');
      expect(html.stdout).toMatch(/<li>102: 2026-10-01 00:00 UTC\+03:00 — .*HTTP 503/);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 60_000);

  it('reports only the stations asked for', async () => {
    const run = await runReport([
      ...periodArgs(prometheus.url),
      '--format=csv',
      '--lang=en',
      '--stations=102',
    ]);
    expect(run.code).toBe(0);
    expect([...csvByStation(run.stdout, 'en').keys()]).toEqual(['102']);
  });
});

describe.skipIf(!binaryPath('victoria-metrics', 'victoria-metrics'))(
  'the report on VictoriaMetrics (remote write)',
  () => {
    let daemon: Daemon;
    let url: string;

    beforeAll(async () => {
      ({ url, daemon } = await startVictoriaMetrics(
        binaryPath('victoria-metrics', 'victoria-metrics') as string,
        '10y',
        'cityair-report-victoria-',
      ));
      const written = await fetch(`${url}/api/v1/write`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy' },
        body: reportRemoteWrite(),
      });
      expect(written.status).toBe(204);
      await waitFor(
        'the written samples',
        async () => {
          const answer = await fetch(
            `${url}/api/v1/query?${new URLSearchParams({
              query: 'count_over_time(cityair_concentration_micrograms_per_cubic_meter{id="101"}[3d])',
              time: String(Date.parse('2026-10-03T00:00:00Z') / 1000),
              nocache: '1',
            })}`,
          );
          const text = await answer.text();
          return text.includes(`"${NO2_SAMPLES}"`) ? true : undefined;
        },
        20_000,
        daemon,
      );
    }, 60_000);

    afterAll(async () => daemon?.stop());

    it('gives every figure of the CSV as worked out by hand, in Russian and English, and the network in JSON', async () => {
      await expectFigures(url);
    }, 60_000);
  },
);

describe('when the store fails', () => {
  it('writes the report marked incomplete, says which part on standard error, and exits 1', async () => {
    const port = await freePort();
    const run = await runReport([...periodArgs(`http://127.0.0.1:${port}`), '--format=json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^cityair-exporter report: неполный: список станций с .*ECONNREFUSED/m);
    const body = z
      .object({
        complete: z.boolean(),
        missing: z.array(z.object({ stationId: z.null(), message: z.string() })),
      })
      .parse(JSON.parse(run.stdout));
    expect(body.complete).toBe(false);
    expect(body.missing).toHaveLength(1);
  }, 30_000);

  it('refuses invalid use with one line and exit 2', async () => {
    for (const args of [
      ['--from=30d'],
      ['--from=30d', '--store.url=x'],
      ['--from=30d', '--store.url=http://a', '--format=pdf'],
      // Found before the store (nothing listens on port 9) is asked anything.
      ['--from=30d', '--store.url=http://127.0.0.1:9', `--output=${tmpdir()}`],
      [
        '--from=30d',
        '--store.url=http://127.0.0.1:9',
        `--output=${join(tmpdir(), 'no-such-dir-7f3a', 'r.csv')}`,
      ],
    ]) {
      const run = await runReport(args);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toBe('');
    }
  });
});
