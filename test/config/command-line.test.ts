// The one command line every command reads: a boolean flag alone is true and --flag=false turns it off, a flag
// beats its variable which beats the default (the demo's with --demo), repeatable flags are kept apart, --help
// shows each setting's range and defaults, and a problem is one line and exit status 2.

// The one error line every command ends a configuration problem with (whatever setting echoed the API key's text,
// the line does not show it, wherever the key came from), and the paragraph before each command's --help table.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { backfillHelp, parseBackfillCli } from '../../src/backfill/config.js';
import {
  type AnySpec,
  type CommandLine,
  ConfigError,
  describeSetting,
  EXIT,
  readFlags,
  readList,
  readSetting,
  renderHelp,
  settingsNote,
  usageFailure,
  usageLine,
} from '../../src/config/command-line.js';
import { durationSetting, setting } from '../../src/config/settings.js';
import { reportHelp } from '../../src/report/config.js';

const ON = setting({
  flag: 'x.on',
  env: 'X_ON',
  default: 'false',
  help: 'On.',
  schema: z.enum(['true', 'false']).transform((v) => v === 'true'),
  boolean: true,
});
const WAIT = durationSetting({
  flag: 'x.wait',
  env: 'X_WAIT',
  default: '1m',
  demoDefault: '5s',
  help: 'Wait.',
  range: [1000, 3_600_000],
});
const TAG = { flag: 'x.tag', help: 'A tag (repeatable).', item: z.string().min(1, 'must not be empty') };
const LINE: CommandLine = { specs: [ON, WAIT] as AnySpec[], lists: [TAG], version: true };

describe('the command line', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('reads a boolean flag alone as true and --flag=false as off, and keeps repeated flags apart', () => {
    expect(readFlags(['--x.on'], LINE).flags['x.on']).toBe('true');
    expect(readSetting(ON, readFlags(['--x.on=false'], LINE).flags, { X_ON: 'true' }, false)).toBe(false);
    expect(readFlags(['--x.tag=a', '--x.tag', 'b'], LINE).lists['x.tag']).toEqual(['a', 'b']);
    expect(() => readList(TAG, [''])).toThrow('invalid --x.tag: must not be empty');
  });

  it('takes the flag, else the variable, else the default (the demo’s with --demo)', () => {
    expect(readSetting(WAIT, { 'x.wait': '2s' }, { X_WAIT: '3s' }, true)).toBe(2000);
    expect(readSetting(WAIT, {}, { X_WAIT: '3s' }, true)).toBe(3000);
    expect(readSetting(WAIT, {}, {}, true)).toBe(5000);
    expect(readSetting(WAIT, {}, {}, false)).toBe(60_000);
    expect(() => readSetting(WAIT, { 'x.wait': '2h' }, {}, false)).toThrow(/^invalid --x.wait \(X_WAIT\): /);
  });

  it('refuses an unknown flag in one line that names the help to read', () => {
    expect(() => readFlags(['--nope'], LINE, 'backfill')).toThrow(ConfigError);
    expect(() => readFlags(['--nope'], LINE, 'backfill')).toThrow(/\(see backfill --help\)$/);
  });

  it('shows each setting’s range and defaults in --help, and the repeatable flags', () => {
    expect(describeSetting(WAIT as AnySpec)).toBe('Wait. From 1s to 1h. (default: 1m; 5s with --demo)');
    const help = renderHelp({ title: 'T', head: ['Usage: x'], rows: [ON as AnySpec, TAG], version: true });
    expect(help).toMatch(/--x\.tag\s+A tag \(repeatable\)\./);
    expect(help).toContain('--version');
  });

  it('ends on a configuration problem with one line and status 2, and lets other errors through', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(usageFailure('report', new ConfigError('bad'), { argv: [], env: {} })).toBe(EXIT.usage);
    expect(write).toHaveBeenCalledWith('cityair-exporter report: bad\n');
    expect(() => usageFailure(undefined, new Error('bug'), { argv: [], env: {} })).toThrow('bug');
  });
});

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
