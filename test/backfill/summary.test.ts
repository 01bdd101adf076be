// The retry command a failed run prints is pasted into tickets and chats: it shows no secret given on the command
// line, and says what to put back.
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BACKFILL_COMMAND_LINE } from '../../src/backfill/config.js';
import { newStats } from '../../src/backfill/stats.js';
import {
  type ArgToken,
  invokedAs,
  retryCommand,
  retryOutput,
  summaryText,
} from '../../src/backfill/summary.js';
import { flagOptions } from '../../src/config/command-line.js';
import { Secret } from '../../src/config/secret.js';
import { failure } from '../../src/upstream/failure.js';

describe('the summary', () => {
  it('counts a station with two spans missing once, and lists each span with its end and why', () => {
    const stats = { ...newStats(0), stationsTotal: 3 };
    const why =
      'the API answered the same newest rows (100, from 2026-10-05T00:00:00Z) whatever date__gt asked';
    const text = summaryText({
      stats,
      failed: [
        {
          id: 4,
          failure: { reason: 'not_served', message: why },
          missingFromMs: Date.UTC(2026, 9, 3, 0, 0, 0, 250),
          missingToMs: Date.UTC(2026, 9, 4),
        },
        { id: 4, failure: failure('http_5xx', 'HTTP 502'), missingFromMs: Date.UTC(2026, 9, 4, 6) },
      ],
      fromMs: Date.UTC(2026, 9, 3),
      toMs: Date.UTC(2026, 9, 6),
      nowMs: 1000,
      retry: 'cityair-exporter backfill ...',
    });
    expect(text).toContain('3 stations (2 read, 1 failed)');
    expect(text).toContain(
      `  4: not_served: ${why}; missing 2026-10-03T00:00:00.250Z to 2026-10-04T00:00:00Z\n` +
        '  4: http_5xx: HTTP 502; missing 2026-10-04T06:00:00Z to 2026-10-06T00:00:00Z\n',
    );
  });
});

describe('the retry command', () => {
  const tokens = (argv: string[]): ArgToken[] =>
    parseArgs({ args: argv, options: flagOptions(BACKFILL_COMMAND_LINE), strict: false, tokens: true })
      .tokens as ArgToken[];

  it('asks for exactly the failed stations from their earliest missing time to the same end', () => {
    const argv = [
      '--from',
      '30d',
      '--output=/data/a b.om',
      '--label',
      "job=it's",
      '--measurements.stations=1,2,3',
    ];
    const failed = [
      { id: 3, failure: failure('http_5xx', 'HTTP 500'), missingFromMs: Date.UTC(2026, 9, 5) },
      { id: 1, failure: failure('timeout', 'slow'), missingFromMs: Date.UTC(2026, 9, 3) },
    ];
    const program = invokedAs('/usr/lib/node_modules/cityair-exporter/dist/main.js', '/home/me');
    expect(retryCommand(program, tokens(argv), failed, Date.UTC(2026, 10, 1), '/data/a b.om')).toBe(
      "node /usr/lib/node_modules/cityair-exporter/dist/main.js backfill --from=2026-10-03T00:00:00Z --to=2026-11-01T00:00:00Z --measurements.stations=1,3 '--output=/data/a b.retry.om' '--label=job=it'\\''s'",
    );
  });

  it('prints --from and --to to the millisecond, to the end of the latest range missing', () => {
    const failed = [
      {
        id: 7,
        failure: { reason: 'not_served' as const, message: 'the API answered the same newest rows' },
        missingFromMs: Date.UTC(2026, 9, 3, 0, 0, 0, 1),
        missingToMs: Date.UTC(2026, 9, 4, 12, 5),
      },
      {
        id: 8,
        failure: { reason: 'not_served' as const, message: 'the API answered the same newest rows' },
        missingFromMs: Date.UTC(2026, 9, 3, 6),
        missingToMs: Date.UTC(2026, 9, 5),
      },
    ];
    expect(retryCommand(['cityair-exporter'], [], failed, Date.UTC(2026, 10, 1), undefined)).toBe(
      'cityair-exporter backfill --from=2026-10-03T00:00:00.001Z --to=2026-10-05T00:00:00Z --measurements.stations=7,8',
    );
  });

  it('starts the retry command the way this run was started', () => {
    expect(invokedAs('/srv/cityair-exporter/dist/main.js', '/srv/cityair-exporter')).toEqual([
      'node',
      'dist/main.js',
    ]);
    expect(invokedAs('/usr/local/bin/cityair-exporter', '/home/me')).toEqual(['cityair-exporter']);
    expect(invokedAs('/opt/x/node_modules/.bin/cityair-exporter', '/opt/x')).toEqual(['cityair-exporter']);
  });

  it('names the retry output next to the first', () => {
    expect(retryOutput('last-month.om')).toBe('last-month.retry.om');
    expect(retryOutput('dir.v2/out')).toBe('dir.v2/out.retry');
    expect(retryOutput('-')).toBe('-');
  });
});

const KEY = 'supersecretkey-ABCDEFGHIJ0123456789';
const tokens = (argv: string[]): ArgToken[] =>
  parseArgs({ args: argv, options: flagOptions(BACKFILL_COMMAND_LINE), strict: false, tokens: true })
    .tokens as ArgToken[];
const failed = [{ id: 3, failure: failure('http_5xx', 'HTTP 500'), missingFromMs: Date.UTC(2026, 9, 5) }];

describe('the retry command', () => {
  const argv = [
    '--remote-write.url=https://writer:pa55word@vm.example/api/v1/write',
    '--remote-write.header=Authorization: Bearer tok-0123456789',
    '--remote-write.header',
    'X-Scope-OrgID: tenant-token',
    `--upstream.url=https://proxy.example/${KEY}`,
    '--label=job=cityair',
  ];
  const retry = retryCommand(
    ['cityair-exporter'],
    tokens(argv),
    failed,
    Date.UTC(2026, 10, 1),
    undefined,
    new Secret(KEY),
  );

  it('shows the names of headers but not their values, nor a URL password, nor the API key', () => {
    expect(retry).toBe(
      'cityair-exporter backfill --from=2026-10-05T00:00:00Z --to=2026-11-01T00:00:00Z --measurements.stations=3 ' +
        "'--remote-write.url=https://writer:[REDACTED]@vm.example/api/v1/write' " +
        "'--remote-write.header=Authorization: [REDACTED]' '--remote-write.header=X-Scope-OrgID: [REDACTED]' " +
        "'--upstream.url=https://proxy.example/[REDACTED]' --label=job=cityair",
    );
  });

  it('leaves a flag alone that shares a few letters with the key', () => {
    const shared = retryCommand(
      ['cityair-exporter'],
      tokens(['--remote-write.url=http://vm/w']),
      failed,
      0,
      undefined,
      new Secret('remote-write-key'),
    );
    expect(shared).toContain(' --remote-write.url=http://vm/w');
  });

  it('says to put back what it hid, and only then', () => {
    const input = { stats: newStats(0), failed, fromMs: 0, toMs: 1, nowMs: 1 };
    expect(summaryText({ ...input, retry })).toContain(
      'retry exactly these stations with (put back what shows as [REDACTED]):\n',
    );
    expect(summaryText({ ...input, retry: 'cityair-exporter backfill --from=x' })).toContain(
      'retry exactly these stations with:\n',
    );
  });
});
