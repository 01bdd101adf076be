import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readBuildFacts } from '../../src/config/package-info.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A checkout as the build leaves it: package.json beside dist/, and dist/REVISION when given. */
function checkout(pkg: string, revision?: string): URL {
  root = mkdtempSync(join(tmpdir(), 'cityair-build-'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'package.json'), pkg);
  if (revision !== undefined) writeFileSync(join(root, 'dist', 'REVISION'), revision);
  return pathToFileURL(join(root, 'dist/'));
}

describe('readBuildFacts', () => {
  it('reads the version from package.json and the revision from dist/REVISION', () => {
    const dist = checkout('{"version":"1.4.0","name":"x"}', '0123abcdef\n');
    expect(readBuildFacts(dist)).toEqual({ version: '1.4.0', revision: '0123abcdef' });
  });

  it('calls the revision unknown when there is no REVISION, or it is not a commit hash', () => {
    expect(readBuildFacts(checkout('{"version":"1.0.0"}'))).toEqual({
      version: '1.0.0',
      revision: 'unknown',
    });
    rmSync(root, { recursive: true });
    expect(readBuildFacts(checkout('{"version":"1.0.0"}', 'main; rm -rf /')).revision).toBe('unknown');
  });

  it('refuses a package.json without a version', () => {
    expect(() => readBuildFacts(checkout('{"version":""}'))).toThrow();
  });

  it('reads this repository’s own build facts', () => {
    const facts = readBuildFacts(new URL('../../dist/', import.meta.url));
    expect(facts.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
