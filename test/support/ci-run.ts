// What .ci/run says about Node: the versions it installs the production dependencies on and runs the suite on.
import { readFileSync } from 'node:fs';

export const CI_RUN = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');

/** The Node versions of its `for version in X.Y.Z ...; do` line. */
export function ciNodeVersions(ci: string = CI_RUN): string[] {
  return /^for version in ([0-9. ]+); do$/m.exec(ci)?.[1]?.trim().split(/\s+/) ?? [];
}
