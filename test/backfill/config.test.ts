// The backfill's command line, in-process: its own settings, the exporter's settings it shares (same flags, same
// checks, same messages), and every way of misusing it, each a ConfigError of one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BackfillConfig, parseBackfillCli } from '../../src/backfill/config.js';
import { parseRfc3339 } from '../../src/backfill/time-spec.js';
import { ConfigError, parseCli } from '../../src/cli.js';
import { INSECURE_WARNING } from '../../src/config/config.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const KEY = { CITYAIR_API_KEY: 'backfill-test-key-0123456789' };

function run(argv: readonly string[], env: NodeJS.ProcessEnv = KEY): BackfillConfig {
  const action = parseBackfillCli(argv, env, NOW);
  if (action.kind !== 'run') throw new Error('expected a run');
  return action.config;
}

function errorOf(argv: readonly string[], env: NodeJS.ProcessEnv = KEY): string {
  try {
    parseBackfillCli(argv, env, NOW);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('backfill settings', () => {
  it('ends the range at now, refuses a start before 2000 and an empty label value', () => {
    expect(run(['--from=1d', '--to=2099-01-01T00:00:00Z', '--output=o.om']).toMs).toBe(NOW);
    for (const from of ['1000000d', '1999-12-31T23:59:59Z'])
      expect(errorOf([`--from=${from}`, '--output=o.om'])).toBe(
        'invalid --from: it must not be before 2000-01-01T00:00:00Z (CityAir has no older readings)',
      );
    expect(errorOf(['--from=1d', '--output=o.om', '--label=job='])).toContain('job= has an empty value');
  });

  it('reads a relative range, a file, labels, and the exporter settings with their defaults', () => {
    const c = run(['--from=30d', '--output=out.om', '--label', 'job=cityair', '--label=instance=a:9610']);
    expect(c.fromMs).toBe(NOW - 30 * 86_400_000);
    expect(c.toMs).toBe(NOW);
    expect(c.target).toEqual({ kind: 'file', path: 'out.om' });
    expect(c.labels).toEqual([
      ['job', 'cityair'],
      ['instance', 'a:9610'],
    ]);
    expect(c.retries).toBe(5);
    expect(c.upstream.apiKey?.reveal()).toBe('backfill-test-key-0123456789');
    expect(c.readings).toEqual({
      interval: '5m',
      stations: undefined,
      concurrency: 2,
      maxBodyBytes: 2 * 1024 * 1024,
    });
  });

  it('reads RFC 3339 times with any offset', () => {
    const c = run(['--from=2026-10-01T03:00:00+03:00', '--to=2026-10-02 00:00:00.5Z', '--output=-']);
    expect(c.fromMs).toBe(Date.UTC(2026, 9, 1));
    expect(c.toMs).toBe(Date.UTC(2026, 9, 2) + 500);
    expect(parseRfc3339('2026-02-30T00:00:00Z')).toBeUndefined();
    expect(parseRfc3339('2026-10-01T24:00:00Z')).toBeUndefined();
  });

  it('takes the shared settings from the environment as the exporter does', () => {
    const c = run(['--from=1h', '--output=-'], {
      ...KEY,
      CITYAIR_MEASUREMENTS_INTERVAL: '1h',
      CITYAIR_MEASUREMENTS_STATIONS: '7,3',
      CITYAIR_MEASUREMENTS_CONCURRENCY: '8',
    });
    expect(c.readings).toEqual({
      interval: '1h',
      stations: [7, 3],
      concurrency: 8,
      maxBodyBytes: 2 * 1024 * 1024,
    });
  });

  it('reports a bad shared setting with the very line the exporter prints', () => {
    const env = { ...KEY, CITYAIR_MEASUREMENTS_CONCURRENCY: '0' };
    let exporterLine = '';
    try {
      parseCli([], env);
    } catch (error) {
      exporterLine = (error as Error).message;
    }
    expect(errorOf(['--from=1d', '--output=-'], env)).toBe(exporterLine);
  });

  it('needs no key with --demo', () => {
    expect(run(['--demo', '--from=1d', '--output=-'], {}).upstream.apiKey).toBeUndefined();
  });

  it('takes a boolean flag with a value, as the exporter does: --demo=false asks for the key again', () => {
    expect(run(['--demo=true', '--from=1d', '--output=-'], {}).demo).toBe(true);
    expect(run(['--demo=false', '--from=1d', '--output=-']).demo).toBe(false);
    expect(run(['--from=1d', '--demo=off', '--output=-'], { ...KEY, CITYAIR_DEMO: '1' }).demo).toBe(false);
    expect(errorOf(['--demo=false', '--from=1d', '--output=-'], {})).toContain('Settings → API access keys');
    expect(
      run(['--upstream.insecure-skip-verify=no', '--from=1d', '--output=-']).upstream.insecureSkipVerify,
    ).toBe(false);
    expect(errorOf(['--demo=maybe', '--from=1d', '--output=-'])).toBe(
      'invalid --demo (CITYAIR_DEMO): "maybe" is not a boolean: true, false, 1, 0, yes, no, on or off',
    );
  });

  it('warns of --upstream.insecure-skip-verify as the exporter does, and of nothing otherwise', () => {
    const warnings = (argv: string[]): readonly string[] => {
      const action = parseBackfillCli(argv, KEY, NOW);
      return action.kind === 'run' ? action.warnings : [];
    };
    const exporter = parseCli(['--upstream.insecure-skip-verify'], KEY);
    expect(exporter.kind === 'run' && exporter.warnings).toEqual([INSECURE_WARNING]);
    expect(warnings(['--upstream.insecure-skip-verify', '--from=1d', '--output=-'])).toEqual([
      INSECURE_WARNING,
    ]);
    expect(warnings(['--from=1d', '--output=-'])).toEqual([]);
  });

  it('reads remote-write settings, with the password and token files checked at start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-bf-'));
    writeFileSync(join(dir, 'pw'), 'secret\n');
    const c = run([
      '--from=1d',
      '--remote-write.url=https://vm.example:8428/api/v1/write',
      '--remote-write.username=air',
      `--remote-write.password-file=${join(dir, 'pw')}`,
      '--remote-write.header=X-Scope-OrgID: air',
    ]);
    expect(c.target).toMatchObject({
      kind: 'remote-write',
      url: 'https://vm.example:8428/api/v1/write',
      basicAuth: { username: 'air', passwordFile: join(dir, 'pw') },
      headers: [['X-Scope-OrgID', 'air']],
      timeoutMs: 30_000,
      maxSamplesPerSend: 10_000,
    });
  });
});

describe('misuse: one line, exit 2', () => {
  it.each([
    [['--output=-'], '--from is required: an RFC 3339 time or a duration such as 30d'],
    [['--from=1d'], 'give exactly one of --output (a file, or - for standard output) and --remote-write.url'],
    [
      ['--from=1d', '--output=-', '--remote-write.url=http://p:9090/api/v1/write'],
      'give exactly one of --output (a file, or - for standard output) and --remote-write.url',
    ],
    [['--from=1d', '--to=2d', '--output=-'], '--from must be before --to and before now'],
    [
      ['--from=yesterday', '--output=-'],
      'invalid --from (CITYAIR_BACKFILL_FROM): "yesterday" is neither an RFC 3339 time such as 2026-10-01T00:00:00Z nor a duration such as 30d or 36h',
    ],
    [
      ['--from=1d', '--output=-', '--label=id=7'],
      'invalid --label: the label id is set by the exporter itself',
    ],
    [['--from=1d', '--output=-', '--label=job=a', '--label=job=b'], 'invalid --label: job is given twice'],
    [
      ['--from=1d', '--output=-', '--label=__name__=x'],
      'invalid --label: "__name__=x" is not name=value with a Prometheus label name (letters, digits, _; not starting with __)',
    ],
    [
      ['--from=1d', '--output=-', '--remote-write.username=u'],
      '--remote-write.username needs --remote-write.url',
    ],
    [
      ['--from=1d', '--remote-write.url=http://u:p@p:9090/api/v1/write'],
      'invalid --remote-write.url (CITYAIR_REMOTE_WRITE_URL): must not carry credentials: use --remote-write.username and --remote-write.password-file',
    ],
    [
      ['--from=1d', '--remote-write.url=http://p/w', '--remote-write.header=Content-Type: text/plain'],
      'invalid --remote-write.header: Content-Type is set by the remote-write protocol itself',
    ],
    [
      ['--from=1d', '--remote-write.url=http://p/w', '--remote-write.bearer-token-file=/nonexistent/token'],
      'cannot read /nonexistent/token (ENOENT)',
    ],
    [['--from=1d', '--output=-', '--listen'], "Unknown option '--listen' (see backfill --help)"],
  ])('%j: %s', (argv, line) => {
    expect(errorOf(argv)).toBe(line);
  });

  it('asks for a key as the exporter does', () => {
    expect(errorOf(['--from=1d', '--output=-'], {})).toContain('Settings → API access keys');
  });
});
