// Readings series the exporter cannot serve yet, for tests that need them in a real Prometheus: a loopback server
// whose /metrics is the real exporter's own scrape followed by a fixed exposition of readings. One target, so the
// readings join the exporter's station series on job, instance and id as they will once the exporter emits them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReadingsFixture {
  /** http://127.0.0.1:PORT; scrape `${url}/metrics`. */
  readonly url: string;
  readonly close: () => Promise<void>;
}

export interface ReadingsFixtureOptions {
  /** Base URL of the running exporter, whose /metrics comes first. */
  readonly exporterUrl: string;
  /** Text format 0.0.4 exposition of the readings, with times from any fixed moment. */
  readonly exposition: string;
}

const TEXT_FORMAT = 'text/plain; version=0.0.4; charset=utf-8';

export async function startReadingsFixture(options: ReadingsFixtureOptions): Promise<ReadingsFixture> {
  let scrapes = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    scrapes += 1;
    const upstream = await fetch(`${options.exporterUrl}/metrics`, {
      headers: { accept: TEXT_FORMAT },
      signal: AbortSignal.timeout(5_000),
    });
    const own = await upstream.text();
    const readings = liven(options.exposition, Math.floor(Date.now() / 1000), scrapes);
    res.writeHead(upstream.status, { 'content-type': TEXT_FORMAT });
    res.end(`${own.endsWith('\n') ? own : `${own}\n`}${readings}`);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The fixture as of now: every `*_timestamp_seconds` value moved so that the newest one is `nowSeconds` (the
 * others keep their distance to it), and every counter multiplied by the number of scrapes so far, so that rates
 * are positive and failure shares stay those of the file.
 */
export function liven(exposition: string, nowSeconds: number, scrapes: number): string {
  const samples = exposition.split('\n').map(parseSample);
  const times = samples.filter((s) => s?.name.endsWith('_timestamp_seconds')).map((s) => s?.value ?? 0);
  const shift = times.length > 0 ? nowSeconds - Math.max(...times) : 0;
  return exposition
    .split('\n')
    .map((line, i) => {
      const s = samples[i];
      if (!s) return line;
      if (s.name.endsWith('_timestamp_seconds')) return `${s.series} ${s.value + shift}`;
      if (s.name.endsWith('_total')) return `${s.series} ${s.value * scrapes}`;
      return line;
    })
    .join('\n');
}

function parseSample(line: string): { name: string; series: string; value: number } | undefined {
  if (line === '' || line.startsWith('#')) return undefined;
  const space = line.lastIndexOf(' ');
  const series = line.slice(0, space);
  const name = series.split('{')[0] ?? series;
  return { name, series, value: Number(line.slice(space + 1)) };
}
