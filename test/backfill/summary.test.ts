// The retry command a failed run prints is pasted into tickets and chats: it shows no secret given on the command
// line, and says what to put back.
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BACKFILL_COMMAND_LINE } from '../../src/backfill/config.js';
import { newStats } from '../../src/backfill/stats.js';
import { type ArgToken, retryCommand, summaryText } from '../../src/backfill/summary.js';
import { flagOptions } from '../../src/config/command-line.js';
import { Secret } from '../../src/config/secret.js';
import { failure } from '../../src/upstream/failure.js';

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
