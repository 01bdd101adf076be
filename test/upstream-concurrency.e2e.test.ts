// --measurements.concurrency as the API counts it, for the real program: readings requests open at the server at
// once (from arrival until the response is finished or the client closes or resets the connection) never pass it,
// through hangs past the deadline, trickling bodies, resets and bodies refused part way; the exporter's rounds and
// the backfill alike (issue 26: in a pool shared with the station list, the next request went out on a spare
// socket while a timed-out one's was still closing). 429 and 503 with Retry-After: test/upstream/pools.test.ts.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBackfill } from './support/backfill.js';
import {
  type CountingUpstream,
  cycleFaults,
  startCountingUpstream,
  stationListBody,
} from './support/counting-upstream.js';
import { makeTempDir } from './support/daemon.js';
import { type ExporterProcess, startExporterProcess } from './support/exporter-process.js';

const KEY = 'sk-concurrency-e2e-5d1c';
let up: CountingUpstream | undefined;
let exporter: ExporterProcess | undefined;
afterEach(async () => {
  await exporter?.stop();
  await up?.close();
});

const until = async (done: () => boolean, timeoutMs: number): Promise<void> => {
  for (const end = Date.now() + timeoutMs; !done() && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 50));
};

describe('readings requests open at the API at once', () => {
  it('are never more than --measurements.concurrency for the exporter', async () => {
    up = await startCountingUpstream(cycleFaults(1000), stationListBody(1000));
    const server = up;
    exporter = await startExporterProcess({
      args: [
        `--upstream.url=${server.baseUrl}`,
        '--collector.measurements',
        '--measurements.concurrency=4',
        '--upstream.timeout=150ms',
        '--upstream.refresh-interval=1s',
      ],
      env: { CITYAIR_API_KEY: KEY },
    });
    await until(() => server.requests() >= 600, 40_000);
    expect(server.requests()).toBeGreaterThanOrEqual(600);
    expect(server.maxOpen()).toBeLessThanOrEqual(4);
  }, 50_000);

  it('are never more than --measurements.concurrency for the backfill', async () => {
    up = await startCountingUpstream(cycleFaults(40), stationListBody(400));
    const dir = await makeTempDir('concurrency-');
    await runBackfill(
      [
        `--upstream.url=${up.baseUrl}`,
        '--from=1h',
        `--output=${join(dir, 'out.om')}`,
        '--measurements.concurrency=4',
        '--upstream.timeout=300ms',
        '--retries=0',
      ],
      { CITYAIR_API_KEY: KEY },
    );
    expect(up.requests()).toBeGreaterThanOrEqual(300);
    expect(up.maxOpen()).toBeLessThanOrEqual(4);
  }, 60_000);
});
