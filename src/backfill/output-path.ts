// What is wrong with an --output before any history is read: a run that finds out at its rename, after hours of
// reading, has wasted them. Messages name what the user can change.
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';

/** Why `path` cannot be the output file, or undefined; `-` (standard output) always can. */
export async function outputPathProblem(path: string): Promise<string | undefined> {
  if (path === '-') return undefined;
  const named = path.endsWith('/') || (await stat(path).catch(() => undefined))?.isDirectory() === true;
  return named ? `invalid --output: ${path} names a directory; name a file in it` : undefined;
}

/** The one line for an output that could not be opened with `code` (ENOENT, EACCES...). */
export function outputOpenProblem(path: string, code: string): string {
  return path === '-'
    ? `cannot create the spool files of --output=- in ${tmpdir()} (TMPDIR) (${code})`
    : `invalid --output: cannot create a file next to ${path} (${code})`;
}
