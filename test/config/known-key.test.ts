// The API key found again for an error line: from the variable, or from the file the flag or variable names.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownKeys } from '../../src/config/known-key.js';

const KEY = 'env-key-0123456789abcdef';
const FILE_KEY = 'file-key-0123456789abcdef';
const reveal = (argv: string[], env: NodeJS.ProcessEnv): string[] =>
  knownKeys(argv, env).map((k) => k.reveal());

describe('knownKeys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cityair-known-key-'));
  const keyFile = join(dir, 'key');
  writeFileSync(keyFile, `${FILE_KEY}\n`);
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);

  it('finds the key in the variable and in the file, the flag before the variable', () => {
    expect(reveal([], { CITYAIR_API_KEY: ` ${KEY}\n` })).toEqual([KEY]);
    expect(reveal(['--upstream.api-key-file', keyFile], { CITYAIR_API_KEY_FILE: fifo })).toEqual([FILE_KEY]);
    expect(reveal([], { CITYAIR_API_KEY: KEY, CITYAIR_API_KEY_FILE: keyFile })).toEqual([KEY, FILE_KEY]);
  });

  it('ignores a file after --, a file it cannot read (a FIFO, at once) and texts too short to be a key', () => {
    expect(reveal(['--', `--upstream.api-key-file=${keyFile}`], {})).toEqual([]);
    expect(reveal([`--upstream.api-key-file=${fifo}`], {})).toEqual([]);
    expect(reveal([`--upstream.api-key-file=${join(dir, 'nope')}`], { CITYAIR_API_KEY: 'k' })).toEqual([]);
  });
});
