// The command line as a user meets it: the built program's exit codes and output. Every setting's parsing is
// proved in-process in config.test.ts; these few spawn dist/main.js to prove what only the process shows.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/cli.js';
import { demoStations } from '../src/demo/stations.js';
import { runExporter, startExporterProcess } from './support/exporter-process.js';
import { get, sample } from './support/http.js';
import { startSimulator } from './support/simulator.js';

describe('command line', () => {
  it('lists every setting with its env variable and default in --help', async () => {
    const { code, stdout } = await runExporter(['--help']);
    expect(code).toBe(0);
    for (const s of Object.values(SETTINGS)) {
      expect(stdout).toContain(s.env);
      if (s.flag) expect(stdout).toContain(`--${s.flag}`);
      const demo = s.demoDefault ? `; ${s.demoDefault} with --demo` : '';
      if (s.default) expect(stdout).toContain(`(default: ${s.default}${demo})`);
    }
  });

  it('prints the version', async () => {
    const { code, stdout } = await runExporter(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^cityair-exporter 0\.1\.0 \(revision [0-9a-f]+|unknown\)/);
  });

  it.concurrent.each([
    [
      ['--upstream.timeout=5'],
      {},
      'cityair-exporter: invalid --upstream.timeout (CITYAIR_TIMEOUT): "5" is not a duration such as 500ms, 30s, 5m or 1h',
    ],
    [
      [],
      { CITYAIR_MEASUREMENTS_CONCURRENCY: '0' },
      'cityair-exporter: invalid --measurements.concurrency (CITYAIR_MEASUREMENTS_CONCURRENCY): "0" is not a whole number from 1 to 16',
    ],
    [
      ['--upstream.refresh-interval=30d'],
      {},
      'cityair-exporter: invalid --upstream.refresh-interval (CITYAIR_REFRESH_INTERVAL): must be at most 1d',
    ],
    [['--no-such-flag'], {}, "cityair-exporter: Unknown option '--no-such-flag' (see --help)"],
    [
      [],
      { CITYAIR_API_KEY: 'k' },
      'cityair-exporter: the API key is too short to be real (1 of at least 16 characters): was all of it copied?',
    ],
  ])('exits 2 with one line naming the setting for %j %j', async (args, env, line) => {
    const { code, stderr } = await runExporter(args, { CITYAIR_API_KEY: 'k', ...env });
    expect(code).toBe(2);
    expect(stderr).toBe(`${line}\n`);
  });

  it('explains where a key comes from when none is given, without a stack trace', async () => {
    const { code, stderr } = await runExporter([]);
    expect(code).toBe(2);
    expect(stderr).toContain('Settings → API access keys');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 1 with one line, no stack trace, when the listen address is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await runExporter([`--web.listen-address=127.0.0.1:${port}`], {
        CITYAIR_API_KEY: 'key-of-the-listen-test',
      });
      expect(code).toBe(1);
      expect(stderr).toBe(
        `cityair-exporter: cannot listen on 127.0.0.1:${port}: the address is already in use (another process, or a second copy of this one, holds it); choose another with --web.listen-address (CITYAIR_LISTEN_ADDRESS)\n`,
      );
      expect(stdout).not.toMatch(/\bat /);
    } finally {
      holder.close();
    }
  });

  it.concurrent.each([
    ['a FIFO nobody writes to', 'fifo'],
    ['/dev/zero', '/dev/zero'],
  ])('refuses %s as the key file at once: one line, exit 2', async (_, name) => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-key-'));
    const path = name === 'fifo' ? join(dir, 'fifo') : name;
    if (name === 'fifo') execFileSync('mkfifo', [path]);
    const { code, stderr } = await runExporter([`--upstream.api-key-file=${path}`], {}, 10_000);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `cityair-exporter: invalid --upstream.api-key-file (CITYAIR_API_KEY_FILE): cannot read the file it names (not a regular file)\n`,
    );
  });

  it('sends the key read from a file, trimmed, to the API', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-key-'));
    writeFileSync(join(dir, 'key'), '  file-key-0123456789abc\n');
    const sim = await startSimulator({ posts: demoStations(), apiKey: 'file-key-0123456789abc' });
    const p = await startExporterProcess({
      args: [`--upstream.url=${sim.baseUrl}`, `--upstream.api-key-file=${join(dir, 'key')}`],
    });
    try {
      expect(sample((await get(`${p.url}/metrics`)).text, 'cityair_up')).toBe(1);
      expect(sim.lastHeaders()?.authorization).toBe('Bearer file-key-0123456789abc');
    } finally {
      await p.stop();
      await sim.close();
    }
  });
});
