import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSmallFile, SmallFileError } from '../../src/config/small-file.js';

const dir = mkdtempSync(join(tmpdir(), 'cityair-small-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const errorOf = (path: string, max: number): string => {
  try {
    readSmallFile(path, max);
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(SmallFileError);
    return (error as Error).message;
  }
};

describe('readSmallFile', () => {
  it('reads a regular file whole, up to its cap', () => {
    const file = join(dir, 'key');
    writeFileSync(file, 'x'.repeat(1024));
    expect(readSmallFile(file, 1024).toString()).toBe('x'.repeat(1024));
  });

  it('refuses a file over its cap, naming the cap', () => {
    const file = join(dir, 'big');
    writeFileSync(file, 'x'.repeat(1025));
    expect(errorOf(file, 1024)).toBe('larger than 1KiB');
    const large = join(dir, 'large');
    writeFileSync(large, Buffer.alloc(2 * 1024 * 1024 + 1));
    expect(errorOf(large, 2 * 1024 * 1024)).toBe('larger than 2MiB');
  });

  it('says why a file cannot be read, without its path', () => {
    expect(errorOf(join(dir, 'missing'), 10)).toBe('ENOENT');
    expect(errorOf(dir, 10)).toBe('EISDIR');
  });

  it('never waits on a FIFO nor reads a device without end', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(errorOf(fifo, 10)).toBe('not a regular file');
    expect(errorOf('/dev/zero', 10)).toBe('not a regular file');
  });
});
