// The one command line every command reads: a boolean flag alone is true and --flag=false turns it off, a flag
// beats its variable which beats the default (the demo's with --demo), repeatable flags are kept apart, --help
// shows each setting's range and defaults, and a problem is one line and exit status 2.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
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
  usageFailure,
} from '../../src/config/command-line.js';
import { durationSetting, setting } from '../../src/config/settings.js';

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
    expect(usageFailure('report', new ConfigError('bad'))).toBe(EXIT.usage);
    expect(write).toHaveBeenCalledWith('cityair-exporter report: bad\n');
    expect(() => usageFailure(undefined, new Error('bug'))).toThrow('bug');
  });
});
