// An --output that cannot be the file is refused before any history is read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  outputOpenProblem,
  outputPathProblem,
  replacedOutputProblem,
} from '../../src/backfill/output-path.js';

describe('the --output path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cityair-output-path-'));

  it('refuses an existing directory, and any path ending in a slash', async () => {
    expect(await outputPathProblem(dir)).toBe(
      `invalid --output: ${dir} names a directory; name a file in it`,
    );
    expect(await outputPathProblem(`${dir}/new/`)).toContain('names a directory');
  });

  it('takes a new file, an existing file (replaced at the end) and standard output', async () => {
    writeFileSync(join(dir, 'old.om'), '');
    expect(await outputPathProblem(join(dir, 'new.om'))).toBeUndefined();
    expect(await outputPathProblem(join(dir, 'old.om'))).toBeUndefined();
    expect(await outputPathProblem('-')).toBeUndefined();
  });

  it('refuses a FIFO (or a device): the backfill renames its file over the name, and the reader would get nothing', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await replacedOutputProblem(fifo)).toBe(
      `invalid --output: ${fifo} is not a regular file (the output is written beside it and renamed over it); for a pipe or a device use --output=- and redirect`,
    );
    const link = join(dir, 'to-fifo');
    symlinkSync(fifo, link);
    expect(await replacedOutputProblem(link)).toContain('is not a regular file');
  });

  it('lets the backfill replace a file, or make a new one, or write standard output', async () => {
    writeFileSync(join(dir, 'kept.om'), '');
    expect(await replacedOutputProblem(join(dir, 'kept.om'))).toBeUndefined();
    expect(await replacedOutputProblem(join(dir, 'none.om'))).toBeUndefined();
    expect(await replacedOutputProblem('-')).toBeUndefined();
  });

  it('names the temporary directory, not --output, when the spools of standard output cannot be made', () => {
    expect(outputOpenProblem('-', 'ENOENT')).toBe(
      `cannot create the spool files of --output=- in ${tmpdir()} (TMPDIR) (ENOENT)`,
    );
    expect(outputOpenProblem('/x/y.om', 'EACCES')).toBe(
      'invalid --output: cannot create a file next to /x/y.om (EACCES)',
    );
  });
});
