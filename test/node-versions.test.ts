// Which Node versions the exporter supports is said once, in "engines", and everything else follows it: CI tests
// the oldest version of each line it allows, the image runs one of those, the README says the same, and every
// production dependency accepts each of them (what `npm ci --omit=dev --engine-strict` checks; .ci/run runs that
// on each version too).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { finalStage, readRepoDockerfile } from './container/dockerfile.js';
import { ciNodeVersions } from './support/ci-run.js';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const engines = z.object({ engines: z.object({ node: z.string() }) }).parse(JSON.parse(read('package.json')))
  .engines.node;
const lock = z
  .object({
    packages: z.record(
      z.string(),
      z.object({
        dev: z.boolean().optional(),
        engines: z.unknown().optional(),
        version: z.string().optional(),
      }),
    ),
  })
  .parse(JSON.parse(read('package-lock.json')));
const tested = ciNodeVersions();
const lines = engines.split('||').map((part) => part.trim());

describe('the supported Node versions', () => {
  it('are a range of whole release lines, each from a version CI tests', () => {
    expect(semver.validRange(engines)).not.toBeNull();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      const oldest = semver.minVersion(line)?.version;
      expect(tested, `the oldest of ${line}`).toContain(oldest);
      // Odd majors never become LTS: none is claimed.
      expect(semver.major(oldest ?? '0.0.0') % 2, line).toBe(0);
    }
  });

  it('include every version CI tests, the image among them', () => {
    for (const v of tested) expect(semver.satisfies(v, engines), v).toBe(true);
    const image = /^node:(\d+\.\d+\.\d+)-/.exec(finalStage(readRepoDockerfile()).image)?.[1];
    expect(tested).toContain(image);
  });

  it('are accepted by every production dependency, so an --engine-strict install passes', () => {
    const refusals: string[] = [];
    for (const [path, pkg] of Object.entries(lock.packages)) {
      const wanted = z.object({ node: z.string() }).safeParse(pkg.engines).data?.node;
      if (path === '' || pkg.dev || wanted === undefined) continue;
      for (const v of tested) {
        if (!semver.satisfies(v, wanted))
          refusals.push(`${path}@${pkg.version} wants node ${wanted}, not ${v}`);
      }
    }
    expect(refusals).toEqual([]);
  });

  it('are what the README says, once', () => {
    const readme = read('README.md').replace(/\s+/g, ' ');
    const said = readme.match(/Runs on Node\.js [^.]*\.[^(]*\([^)]*\)/g) ?? [];
    expect(said).toHaveLength(1);
    for (const line of lines) {
      const oldest = semver.minVersion(line);
      if (oldest === null) throw new Error(`no version in ${line}`);
      const { major, minor, patch } = oldest;
      expect(said[0]).toContain(
        minor === 0 && patch === 0 ? `any ${major}` : `${major}.${minor} or a later ${major}`,
      );
    }
    const majors = new Set(lines.map((l) => String(semver.minVersion(l)?.major)));
    // A major is a number not after a dot: 22.12 names the major 22.
    for (const [n] of said[0]?.matchAll(/(?<![.\d])\d+/g) ?? [])
      expect(majors, `${n} in "${said[0]}"`).toContain(n);
    expect(readme).toContain(`the container image runs ${tested.at(-1)}.`);
    expect(readme).not.toMatch(/Node(?:\.js)? 20\b/);
  });
});
