// The one error line every command ends a configuration problem with (whatever setting echoed the API key's text,
// the line does not show it, wherever the key came from), and the paragraph before each command's --help table.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backfillHelp, parseBackfillCli } from '../../src/backfill/config.js';
import { type AnySpec, ConfigError, settingsNote, usageLine } from '../../src/config/command-line.js';
import { reportHelp } from '../../src/report/config.js';

const KEY = 'supersecretkey-ABCDEFGHIJ0123456789';

describe('the one-line configuration error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cityair-command-line-'));
  const keyFile = join(dir, 'key');
  writeFileSync(keyFile, ` ${KEY}\n`);
  const echoing = new ConfigError(`invalid --demo (CITYAIR_DEMO): not a boolean: ${KEY}`);

  it.each([
    ['CITYAIR_API_KEY', [], { CITYAIR_API_KEY: KEY }],
    ['the file --upstream.api-key-file= names', [`--upstream.api-key-file=${keyFile}`], {}],
    ['the file --upstream.api-key-file names (separate value)', ['--upstream.api-key-file', keyFile], {}],
    ['the file CITYAIR_API_KEY_FILE names', [], { CITYAIR_API_KEY_FILE: keyFile }],
  ])('does not show the key from %s', (_, argv, env) => {
    const line = usageLine('backfill', echoing, { argv, env });
    expect(line).toBe(
      'cityair-exporter backfill: invalid --demo (CITYAIR_DEMO): not a boolean: [REDACTED]\n',
    );
  });

  it('does not show a part of the key either', () => {
    const line = usageLine(undefined, new ConfigError(`unknown option --${KEY.slice(5, 20)}`), {
      argv: [],
      env: { CITYAIR_API_KEY: KEY },
    });
    expect(line).not.toContain(KEY.slice(5, 20));
    expect(line).toMatch(/^cityair-exporter: unknown option --\[REDACTED\]\n$/);
  });

  it('leaves the line as it is when no key is known, or the key file cannot be read', () => {
    const from = { argv: [`--upstream.api-key-file=${join(dir, 'nope')}`], env: {} };
    expect(usageLine('report', echoing, from)).toBe(`cityair-exporter report: ${echoing.message}\n`);
  });

  it('takes the key out of the backfill error a --demo given the key would print', () => {
    const argv = [`--demo=${KEY}`, '--from=1h', '--output=x'];
    const env = { CITYAIR_API_KEY: KEY };
    let error: unknown;
    try {
      parseBackfillCli(argv, env, Date.UTC(2026, 10, 26));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(KEY);
    const line = usageLine('backfill', error as ConfigError, { argv, env });
    expect(line).not.toContain(KEY.slice(0, 6));
    expect(line).toContain('[REDACTED]');
  });
});

describe('the paragraph before a --help table', () => {
  const spec = (over: Partial<AnySpec>): AnySpec => ({
    flag: 'x',
    env: 'X',
    default: undefined,
    help: '',
    schema: z.string(),
    ...over,
  });

  it('names the flags that have no variable, and explains booleans only to a command that has one', () => {
    const label = { flag: 'label', help: '', item: z.string() };
    const note = settingsNote([spec({ range: [0, 1000] }), label]).join(' ');
    expect(note).toBe(
      'Every setting is a flag or an environment variable (--label, which may repeat, is a flag only); the flag wins. Durations use Prometheus notation.',
    );
    expect(settingsNote([spec({ boolean: true })]).join(' ')).toBe(
      'Every setting is a flag or an environment variable; the flag wins. A boolean flag alone means true; --flag=false (or 0, no, off) turns it off, as in its variable.',
    );
  });

  it('shows each command its own: the report has repeatable flags and no boolean', () => {
    const help = reportHelp('1.0.0');
    expect(help).toContain('(--label and --store.header, which may repeat, are flags only)');
    expect(help).not.toContain('A boolean flag');
    expect(backfillHelp('1.0.0')).toContain('--label and --remote-write.header');
    expect(backfillHelp('1.0.0')).toContain('A boolean');
  });
});
