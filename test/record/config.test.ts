// The record's flags and environment, read by the exporter's one command line through the registry: off unless
// a remote-write URL is given, and every invalid combination one ConfigError (exit 2).
import { describe, expect, it } from 'vitest';
import { ConfigError, parseCli } from '../../src/cli.js';
import { type RecordConfig, recordWarnings } from '../../src/record/config.js';

const KEY = { CITYAIR_API_KEY: 'record-config-test-key-0123456789' };
const ON = ['--collector.measurements'];
const BASE = [
  '--record.remote-write.url=http://vm:8428/api/v1/write',
  '--record.query.url=http://vm:8428',
  '--record.label=job=cityair',
  '--record.label=instance=exporter:9610',
];

function read(argv: readonly string[], env: Readonly<Record<string, string>> = {}) {
  const action = parseCli(argv, { ...KEY, ...env });
  if (action.kind !== 'run') throw new Error(`expected a run, got ${action.kind}`);
  return { config: action.config.record?.record, warnings: action.warnings };
}

describe('the record’s settings', () => {
  it('is off without a remote-write URL, and takes flags, environment and defaults', () => {
    expect(read(ON).config).toBeUndefined();
    const { config, warnings } = read([...ON, ...BASE], { CITYAIR_RECORD_INTERVAL: '5m' });
    expect(config).toMatchObject({
      lookbackMs: 48 * 3_600_000,
      intervalMs: 5 * 60_000,
      labels: [
        ['job', 'cityair'],
        ['instance', 'exporter:9610'],
      ],
      write: { url: 'http://vm:8428/api/v1/write', maxSamplesPerSend: 10_000, timeoutMs: 30_000 },
      query: { url: 'http://vm:8428/', timeoutMs: 60_000 },
    });
    expect(warnings).toEqual([]);
    const env = read(ON, {
      CITYAIR_RECORD_REMOTE_WRITE_URL: 'http://p:9090/api/v1/write',
      CITYAIR_RECORD_QUERY_URL: 'http://p:9090',
      CITYAIR_RECORD_LOOKBACK: '6h',
    });
    expect(env.config?.lookbackMs).toBe(6 * 3_600_000);
    expect(env.warnings.join('\n')).toMatch(/no job/);
  });

  it('takes its flags in both forms among the exporter’s', () => {
    const { config } = read([
      '--demo',
      ...ON,
      ...BASE,
      '--record.label',
      'zone=x',
      '--record.lookback',
      '6h',
      '--web.listen-address=:1',
    ]);
    expect(config?.lookbackMs).toBe(6 * 3_600_000);
    expect(config?.labels).toContainEqual(['zone', 'x']);
  });

  it.each([
    [['--record.query.url=http://vm:8428'], /--record.query.url needs --record.remote-write.url/],
    [['--record.lookback=6h'], /--record.lookback needs --record.remote-write.url/],
    [['--record.label=job=x'], /--record.label needs --record.remote-write.url/],
    [[BASE[0] as string], /needs --record.query.url/],
    [[...BASE, '--record.interval=30s'], /invalid --record.interval/],
    [[...BASE, '--record.lookback=20m'], /invalid --record.lookback/],
    [[...BASE, '--record.lookback=1h', '--measurements.max-age=2h'], /longer than --measurements.max-age/],
    [[...BASE, '--record.label=job=other'], /job is given twice/],
    [[...BASE, '--record.query.username=u'], /go together/],
    [[...BASE, '--record.remote-write.bearer-token-file=/nonexistent'], /cannot read/],
    [[...BASE, '--record.query.url=http://u:p@vm:8428'], /must not carry credentials/],
    [[...BASE, '--record.query.url=http://vm:8428/?extra_label=a=b'], /query or a fragment/],
    [[...BASE, '--record.query.url=http://vm:8428#x'], /query or a fragment/],
    [[BASE[1] as string, '--record.remote-write.url=http://vm:8428/api/v1/write?x=1'], /query or a fragment/],
    [[...BASE, '--record.nonsense=1'], /nonsense/],
  ])('refuses %j', (argv, message) => {
    expect(() => read([...ON, ...argv])).toThrow(ConfigError);
    expect(() => read([...ON, ...argv])).toThrow(message);
  });

  it('warns of each of job and instance missing from its labels', () => {
    const labelled = (labels: [string, string][]) => ({ labels }) as unknown as RecordConfig;
    expect(recordWarnings(labelled([['job', 'a']])).join('\n')).toMatch(/has no instance/);
    expect(recordWarnings(labelled([['zone', 'z']]))).toHaveLength(2);
    expect(
      recordWarnings(
        labelled([
          ['job', 'a'],
          ['instance', 'b'],
        ]),
      ),
    ).toEqual([]);
  });

  it('needs the readings collector', () => {
    expect(() => read(BASE)).toThrow(/needs the readings collector/);
  });
});
