// --output judged before anything is read: a directory, or a file in a directory that is not there, is invalid use.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportOutputProblem } from '../../src/report/output-check.js';

describe('the report’s --output', () => {
  it('refuses a directory and a file in a missing directory, and takes a new file or standard output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cityair-report-out-'));
    expect(await reportOutputProblem(dir)).toBe(
      `invalid --output: ${dir} names a directory; name a file in it`,
    );
    expect(await reportOutputProblem(join(dir, 'missing', 'r.csv'))).toBe(
      `invalid --output: cannot create a file next to ${join(dir, 'missing', 'r.csv')} (ENOENT)`,
    );
    expect(await reportOutputProblem(join(dir, 'r.csv'))).toBeUndefined();
    expect(await reportOutputProblem('-')).toBeUndefined();
  });
});
