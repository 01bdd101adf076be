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

/**
 * Why the backfill cannot write `path` its way, or undefined: it writes a file next to it and renames that over the
 * name at the end, which would put a regular file where a FIFO or a device was and leave their reader with nothing.
 * Standard output (`-`) is how a pipe or a device gets the backfill.
 */
export async function replacedOutputProblem(path: string): Promise<string | undefined> {
  if (path === '-') return undefined;
  const found = await stat(path).catch(() => undefined);
  if (found === undefined || found.isFile() || found.isDirectory()) return undefined;
  return `invalid --output: ${path} is not a regular file (the output is written beside it and renamed over it); for a pipe or a device use --output=- and redirect`;
}

/** The one line for an output that could not be opened with `code` (ENOENT, EACCES...). */
export function outputOpenProblem(path: string, code: string): string {
  return path === '-'
    ? `cannot create the spool files of --output=- in ${tmpdir()} (TMPDIR) (${code})`
    : `invalid --output: cannot create a file next to ${path} (${code})`;
}
