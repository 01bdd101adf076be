// The record's settings table: its defaults are valid values, its flags and environment variables are named
// alike, and every value it refuses is one line naming the flag (exit 2), at the bounds --help states.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { RECORD_LISTS, RECORD_SETTINGS } from '../../src/record/settings.js';
import { recordConfigOf } from '../support/record-config.js';

const BASE = [
  '--record.remote-write.url=http://vm:8428/api/v1/write',
  '--record.query.url=http://vm:8428',
  '--record.label=job=cityair',
  '--record.label=instance=exporter:9610',
];
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The ConfigError's message a flag's value gives, or undefined when it is taken. */
function refusal(...argv: string[]): string | undefined {
  try {
    recordConfigOf([...BASE, ...argv]);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('the record’s settings table', () => {
  it('has defaults its own schemas take, and an environment variable named after each flag', () => {
    for (const spec of Object.values(RECORD_SETTINGS)) {
      expect(spec.flag).toMatch(/^record\./);
      expect(spec.env).toBe(`CITYAIR_${(spec.flag ?? '').toUpperCase().replace(/[.-]/g, '_')}`);
      if (spec.default !== undefined) expect(spec.schema.safeParse(spec.default).success).toBe(true);
    }
    for (const list of Object.values(RECORD_LISTS)) expect(list.flag).toMatch(/^record\./);
  });

  it('takes the bounds --help states', () => {
    const at = (...argv: string[]) => recordConfigOf([...BASE, ...argv]);
    expect(at('--record.lookback=1h')?.lookbackMs).toBe(60 * MINUTE);
    expect(at('--record.lookback=31d')?.lookbackMs).toBe(31 * DAY);
    expect(at('--record.interval=1m')?.intervalMs).toBe(MINUTE);
    expect(at('--record.interval=1d')?.intervalMs).toBe(DAY);
    expect(at('--record.remote-write.max-samples-per-send=100')?.write.maxSamplesPerSend).toBe(100);
    expect(at('--record.remote-write.max-samples-per-send=100000')?.write.maxSamplesPerSend).toBe(100_000);
    expect(at('--record.query.timeout=1s')?.query.timeoutMs).toBe(1000);
    expect(at('--record.remote-write.timeout=1h')?.write.timeoutMs).toBe(3_600_000);
    expect(at('--record.query.header=X-Scope-OrgID: tenant-1')?.query.headers).toEqual([
      ['X-Scope-OrgID', 'tenant-1'],
    ]);
  });

  it.each([
    [
      '--record.remote-write.url=vm:8428/api/v1/write',
      /^invalid --record\.remote-write\.url \(CITYAIR_RECORD_[A-Z_]+\): must use http or https$/,
    ],
    [
      '--record.remote-write.url=not a url',
      /^invalid --record\.remote-write\.url \(CITYAIR_RECORD_[A-Z_]+\): is not an absolute URL/,
    ],
    [
      '--record.remote-write.url=http://u:p@vm:8428/api/v1/write',
      /must not carry credentials: use --record\.remote-write\.username/,
    ],
    [
      '--record.query.url=http://u:p@vm:8428',
      /^invalid --record\.query\.url \(CITYAIR_RECORD_[A-Z_]+\): must not carry credentials: use --record\.query\.username/,
    ],
    [
      '--record.query.url=ftp://vm',
      /^invalid --record\.query\.url \(CITYAIR_RECORD_[A-Z_]+\): must use http or https$/,
    ],
    ['--record.lookback=59m', /^invalid --record\.lookback \(CITYAIR_RECORD_[A-Z_]+\): must be at least 1h$/],
    ['--record.lookback=32d', /^invalid --record\.lookback \(CITYAIR_RECORD_[A-Z_]+\): must be at most/],
    [
      '--record.lookback=two days',
      /^invalid --record\.lookback \(CITYAIR_RECORD_[A-Z_]+\): "two days" is not a duration/,
    ],
    ['--record.interval=30s', /^invalid --record\.interval \(CITYAIR_RECORD_[A-Z_]+\): must be at least 1m$/],
    ['--record.interval=2d', /^invalid --record\.interval \(CITYAIR_RECORD_[A-Z_]+\): must be at most/],
    [
      '--record.remote-write.timeout=500ms',
      /^invalid --record\.remote-write\.timeout \(CITYAIR_RECORD_[A-Z_]+\): must be at least 1s$/,
    ],
    [
      '--record.query.timeout=2h',
      /^invalid --record\.query\.timeout \(CITYAIR_RECORD_[A-Z_]+\): must be at most/,
    ],
    [
      '--record.remote-write.max-samples-per-send=99',
      /^invalid --record\.remote-write\.max-samples-per-send \(CITYAIR_RECORD_[A-Z_]+\): "99" is not a whole number from 100 to 100000$/,
    ],
    ['--record.remote-write.max-samples-per-send=1e4', /is not a whole number from 100 to 100000/],
    [
      '--record.query.username=',
      /^invalid --record\.query\.username \(CITYAIR_RECORD_[A-Z_]+\): must not be empty$/,
    ],
    [
      '--record.remote-write.password-file=',
      /^invalid --record\.remote-write\.password-file \(CITYAIR_RECORD_[A-Z_]+\): must not be empty$/,
    ],
    [
      '--record.query.ca-file=',
      /^invalid --record\.query\.ca-file \(CITYAIR_RECORD_[A-Z_]+\): must not be empty$/,
    ],
    ['--record.label=job', /^invalid --record\.label: "job" is not name=value/],
    ['--record.label=__name__=x', /^invalid --record\.label: .* not starting with __/],
    ['--record.label=id=3', /^invalid --record\.label: the label id is set by the exporter itself$/],
    ['--record.label=env=', /^invalid --record\.label: env= has an empty value/],
    [
      '--record.remote-write.header=Authorization',
      /^invalid --record\.remote-write\.header: is not "Name: value"/,
    ],
    [
      '--record.remote-write.header=Content-Encoding: gzip',
      /Content-Encoding is set by the remote-write protocol itself$/,
    ],
    ['--record.query.header=X-A: b\u0007', /^invalid --record\.query\.header: is not "Name: value"/],
  ])('refuses %s in one line', (arg, message) => {
    const said = refusal(arg);
    expect(said).toMatch(message);
    expect(said).not.toContain('\n');
  });

  it('refuses a bad value from the environment as from a flag, naming the variable', () => {
    expect(() => recordConfigOf(BASE, { CITYAIR_RECORD_INTERVAL: '10s' })).toThrow(
      /CITYAIR_RECORD_INTERVAL.*must be at least 1m/,
    );
  });
});
