import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { offsetOf, parseReportCli, type ReportConfig, reportHelp } from '../../src/report/config.js';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const STORE = '--store.url=http://prometheus:9090';
const dir = mkdtempSync(join(tmpdir(), 'cityair-report-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(argv: string[], env: NodeJS.ProcessEnv = {}): ReportConfig {
  const action = parseReportCli(argv, env, NOW);
  if (action.kind !== 'run') throw new Error('expected a run');
  return action.config;
}

function errorOf(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    parseReportCli(argv, env, NOW);
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('parseReportCli', () => {
  it('reads a period on the clock --from was written with, ending at now by default', () => {
    const c = run(['--from=2026-10-01T00:00:00+03:00', STORE]);
    expect(c).toMatchObject({
      fromMs: Date.parse('2026-09-30T21:00:00Z'),
      toMs: NOW,
      offsetMinutes: 180,
      output: '-',
      format: 'html',
      lang: 'ru',
      labels: [],
      stations: undefined,
    });
    expect(c.store).toMatchObject({ url: 'http://prometheus:9090/', timeoutMs: 120_000, headers: [] });
  });

  it('reads a duration as before now, a --to after now as now, and settings from the environment', () => {
    const c = run([], {
      CITYAIR_REPORT_FROM: '7d',
      CITYAIR_REPORT_TO: '2027-01-01T00:00:00Z',
      CITYAIR_REPORT_STORE_URL: 'http://vm:8428',
      CITYAIR_REPORT_FORMAT: 'json',
    });
    expect(c).toMatchObject({ fromMs: NOW - 7 * 86_400_000, toMs: NOW, offsetMinutes: 0, format: 'json' });
  });

  it('reads labels, stations, headers and the store’s credentials', () => {
    const password = join(dir, 'password');
    writeFileSync(password, 'pw');
    const c = run([
      '--from=30d',
      STORE,
      '--label=job=cityair',
      '--label',
      'instance=e:9610',
      '--stations=101,102',
      '--store.header=X-Scope-OrgID: air',
      '--store.username=u',
      `--store.password-file=${password}`,
    ]);
    expect(c.labels).toEqual([
      ['job', 'cityair'],
      ['instance', 'e:9610'],
    ]);
    expect(c.stations).toEqual([101, 102]);
    expect(c.store).toMatchObject({
      headers: [['X-Scope-OrgID', 'air']],
      basicAuth: { username: 'u', passwordFile: password },
    });
  });

  it('asks for help', () => {
    expect(parseReportCli(['--help'], {}, NOW)).toEqual({ kind: 'help' });
  });

  it('refuses misuse in one line', () => {
    expect(errorOf([STORE])).toBe('--from is required: an RFC 3339 time or a duration such as 30d');
    expect(errorOf(['--from=30d'])).toBe(
      '--store.url is required: the query API of the store, e.g. http://prometheus:9090',
    );
    expect(errorOf(['--from=2026-11-02T00:00:00Z', STORE])).toBe('--from must be before --to and before now');
    expect(errorOf(['--from=30d', STORE, '--label=a=1', '--label=a=2'])).toBe(
      'invalid --label: a is given twice',
    );
    expect(errorOf(['--from=30d', STORE, '--store.username=u'])).toBe(
      '--store.username and --store.password-file go together',
    );
  });
});

describe('offsetOf', () => {
  it('reads the offset an RFC 3339 time was written with, and 0 for Z or a duration', () => {
    expect(offsetOf('2026-10-01T00:00:00+03:00')).toBe(180);
    expect(offsetOf('2026-10-01 00:00:00-03:30')).toBe(-210);
    expect(offsetOf('2026-10-01T00:00:00Z')).toBe(0);
    expect(offsetOf('30d')).toBe(0);
    expect(offsetOf('+03:00')).toBe(0);
  });
});

describe('reportHelp', () => {
  it('lists every flag with its variable, and the exit statuses', () => {
    const help = reportHelp('1.2.3');
    expect(help).toMatch(/^cityair-exporter 1\.2\.3 report: /);
    expect(help).toMatch(/--from\s+CITYAIR_REPORT_FROM/);
    expect(help).toMatch(/--store\.header\s/);
    expect(help).toContain('Exit status: 0 a complete report, 1 the store failed part of it');
  });
});
