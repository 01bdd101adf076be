// The report's --output judged before the store is read, with the backfill's rules and words: a year's report that
// finds its directory missing only after reading the store has wasted the reading.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { outputOpenProblem, outputPathProblem } from '../backfill/output-path.js';

/** Why the report cannot be written to `path`, or undefined; `-` (standard output) always can. */
export async function reportOutputProblem(path: string): Promise<string | undefined> {
  const named = await outputPathProblem(path);
  if (named !== undefined || path === '-') return named;
  const code = await access(dirname(path), constants.W_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code ?? 'unwritable',
  );
  return code === undefined ? undefined : outputOpenProblem(path, code);
}
