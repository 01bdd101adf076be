// Golden files: expected output kept in the repository, compared byte for byte. UPDATE_GOLDEN=1 rewrites them, and
// the diff is what a reviewer reads.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

export function expectGolden(file: URL, actual: string): void {
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(file, actual);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(file, 'utf8');
  } catch {
    throw new Error(
      `no golden file ${file.pathname}: run with UPDATE_GOLDEN=1 to write it, then review the diff`,
    );
  }
  expect(actual, `differs from ${file.pathname} (UPDATE_GOLDEN=1 rewrites it)`).toBe(expected);
}
