// Version and revision of this build, read from the files that ship with it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const packageJson = z.object({ version: z.string().min(1) });

export interface BuildFacts {
  readonly version: string;
  readonly revision: string;
}

/** dist/main.js sits one level below package.json, in the repository and in the image alike. */
export function readBuildFacts(distDir: URL): BuildFacts {
  const pkg = packageJson.parse(JSON.parse(readFileSync(new URL('../package.json', distDir), 'utf8')));
  let revision = 'unknown';
  try {
    const text = readFileSync(new URL('REVISION', distDir), 'utf8').trim();
    if (/^[0-9a-f]{7,40}$/.test(text)) revision = text;
  } catch {
    // Not built from a git checkout: the revision stays unknown.
  }
  return { version: pkg.version, revision };
}
