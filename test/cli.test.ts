import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/boundaries/config.js';
import { runExporter, startExporterProcess } from './support/exporter-process.js';
import { get } from './support/http.js';

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
      /^cityair-exporter: invalid --upstream\.timeout \(CITYAIR_TIMEOUT\): "5" is not a duration/,
    ],
    [[], { CITYAIR_MIN_INTERVAL: 'soon' }, /invalid --upstream\.min-interval \(CITYAIR_MIN_INTERVAL\)/],
    [['--upstream.max-body-size=lots'], {}, /invalid --upstream\.max-body-size/],
    [['--upstream.url=ftp://x'], {}, /invalid --upstream\.url \(CITYAIR_BASE_URL\): must use http or https/],
    [['--web.listen-address=9610'], {}, /invalid --web\.listen-address/],
    [['--log.level=verbose'], {}, /invalid --log\.level/],
    [['--web.telemetry-path=metrics'], {}, /invalid --web\.telemetry-path/],
    [['--no-such-flag'], {}, /Unknown option '--no-such-flag'/],
  ])('exits 2 with one line naming the setting for %j %j', async (args, env, message) => {
    const { code, stderr } = await runExporter(args, { CITYAIR_API_KEY: 'k', ...env });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('explains where a key comes from when none is given, without a stack trace', async () => {
    const { code, stderr } = await runExporter([]);
    expect(code).toBe(2);
    expect(stderr).toContain('Settings → API access keys');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('reads the key from a file, trimmed, and refuses an unreadable one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-key-'));
    writeFileSync(join(dir, 'key'), '  file-key-123\n');
    const p = await startExporterProcess({
      args: ['--upstream.url=http://127.0.0.1:1', `--upstream.api-key-file=${join(dir, 'key')}`],
    });
    await p.stop();
    const missing = await runExporter([`--upstream.api-key-file=${join(dir, 'nope')}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope \(ENOENT\)/);
    const both = await runExporter([`--upstream.api-key-file=${join(dir, 'key')}`], { CITYAIR_API_KEY: 'k' });
    expect(both.stderr).toMatch(/set only one of/);
  });

  it('lets a flag win over the environment', async () => {
    const p = await startExporterProcess({
      args: ['--demo', '--web.telemetry-path=/from-flag'],
      env: { CITYAIR_TELEMETRY_PATH: '/from-env' },
    });
    try {
      expect((await get(`${p.url}/from-flag`)).status).toBe(200);
      expect((await get(`${p.url}/from-env`)).status).toBe(404);
    } finally {
      await p.stop();
    }
  });
});
