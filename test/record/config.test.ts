// The record's flags and environment: off unless a remote-write URL is given, and every invalid combination one
// ConfigError (exit 2); its metrics pass promtool's lint.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { parseRecordCli, splitRecordArgs } from '../../src/record/config.js';
import { createRecordMetrics } from '../../src/record/metrics.js';
import type { RecordRoundResult } from '../../src/record/round.js';
import { checkMetrics } from '../support/promtool.js';

const ON = { demo: false, readingsEnabled: true, maxAgeMs: 30 * 60_000 };
const BASE = [
  '--record.remote-write.url=http://vm:8428/api/v1/write',
  '--record.query.url=http://vm:8428',
  '--record.label=job=cityair',
  '--record.label=instance=exporter:9610',
];

describe('the record’s settings', () => {
  it('is off without a remote-write URL, and takes flags, environment and defaults', () => {
    expect(parseRecordCli([], {}, ON).config).toBeUndefined();
    const { config, warnings } = parseRecordCli(BASE, { CITYAIR_RECORD_INTERVAL: '5m' }, ON);
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
    const env = parseRecordCli(
      [],
      {
        CITYAIR_RECORD_REMOTE_WRITE_URL: 'http://p:9090/api/v1/write',
        CITYAIR_RECORD_QUERY_URL: 'http://p:9090',
        CITYAIR_RECORD_LOOKBACK: '6h',
      },
      ON,
    );
    expect(env.config?.lookbackMs).toBe(6 * 3_600_000);
    expect(env.warnings.join('\n')).toMatch(/no job/);
  });

  it.each([
    [['--record.query.url=http://vm:8428'], ON, /--record.query.url needs --record.remote-write.url/],
    [['--record.lookback=6h'], ON, /--record.lookback needs --record.remote-write.url/],
    [['--record.label=job=x'], ON, /--record.label needs --record.remote-write.url/],
    [BASE, { ...ON, readingsEnabled: false }, /needs the readings collector/],
    [[BASE[0] as string], ON, /needs --record.query.url/],
    [[...BASE, '--record.interval=30s'], ON, /invalid --record.interval/],
    [[...BASE, '--record.lookback=20m'], ON, /invalid --record.lookback/],
    [
      [...BASE, '--record.lookback=1h'],
      { ...ON, maxAgeMs: 2 * 3_600_000 },
      /longer than --measurements.max-age/,
    ],
    [[...BASE, '--record.label=job=other'], ON, /job is given twice/],
    [[...BASE, '--record.query.username=u'], ON, /go together/],
    [[...BASE, '--record.remote-write.bearer-token-file=/nonexistent'], ON, /cannot read/],
    [[...BASE, '--record.query.url=http://u:p@vm:8428'], ON, /must not carry credentials/],
    [[...BASE, '--record.query.url=http://vm:8428/?extra_label=a=b'], ON, /query or a fragment/],
    [[...BASE, '--record.query.url=http://vm:8428#x'], ON, /query or a fragment/],
    [
      [BASE[1] as string, '--record.remote-write.url=http://vm:8428/api/v1/write?x=1'],
      ON,
      /query or a fragment/,
    ],
    [[...BASE, '--record.nonsense=1'], ON, /nonsense/],
  ])('refuses %j', (argv, context, message) => {
    expect(() => parseRecordCli(argv, {}, context)).toThrow(ConfigError);
    expect(() => parseRecordCli(argv, {}, context)).toThrow(message);
  });

  it('takes its arguments out of the exporter’s, in both forms', () => {
    expect(
      splitRecordArgs([
        '--demo',
        '--record.label',
        'job=x',
        '--record.lookback=6h',
        '--web.listen-address=:1',
        '--',
      ]),
    ).toEqual({
      record: ['--record.label', 'job=x', '--record.lookback=6h'],
      rest: ['--demo', '--web.listen-address=:1', '--'],
    });
  });
});

describe('the record’s metrics', () => {
  it('pass promtool check metrics with no finding', async () => {
    const registry = new Registry();
    const metrics = createRecordMetrics(registry);
    const round: RecordRoundResult = {
      outcome: 'partial',
      failures: { upstream: 'timeout' },
      gapsFound: 3,
      gapsAsked: 2,
      rowsMissing: 10,
      rowsWritten: 10,
      unfilled: { no_rows: 1, not_served: 0, failed: 1 },
      upstreamRequests: 4,
      stationsFilled: 1,
      quiet: new Map(),
      filled: new Map(),
    };
    metrics.count(round, Date.UTC(2026, 10, 27), 1.5);
    metrics.storeQueries(3);
    const text = await registry.metrics();
    expect(text).toContain('cityair_record_written_rows_total 10');
    expect(text).toContain('cityair_record_failures_total{reason="upstream"} 1');
    const lint = checkMetrics(text);
    if (lint) expect(lint).toEqual({ code: 0, findings: '' });
  });
});
