// docs/container.md is what people copy commands from: it must describe the Dockerfile as it is.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { finalStage, healthcheck, readRepoDockerfile, stageEnv } from './dockerfile.js';

const doc = readFileSync(new URL('../../docs/container.md', import.meta.url), 'utf8');
const runtime = finalStage(readRepoDockerfile());

/** The shell blocks of the page, continuation lines joined. */
const commands = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').replace(/\\\n\s*/g, ''));

describe('docs/container.md', () => {
  it('names the base image the Dockerfile pins', () => {
    expect(doc).toContain(`\`${runtime.image}\``);
  });

  it('says the Node version is a Current release until it moves to an LTS one', () => {
    expect(doc).not.toMatch(/Active LTS/);
    expect(doc).toMatch(/"Current" release/);
  });

  it("quotes the health check's interval, timeout, start period and retries as the Dockerfile sets them", () => {
    const flags = healthcheck(runtime)?.instruction.flags ?? {};
    expect(Object.keys(flags).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(flags)) expect(doc).toContain(`--${name}=${value}`);
  });

  it("quotes the image's NODE_OPTIONS and says that one given to docker run replaces it", () => {
    const options = stageEnv(runtime).NODE_OPTIONS;
    expect(options).toBeDefined();
    expect(doc).toContain(`NODE_OPTIONS="${options}"`);
    expect(doc).toMatch(/\*\*replaces\*\*/);
  });

  it('builds with the revision label whenever it passes a revision', () => {
    const withRevision = commands.filter((c) => /--build-arg REVISION=/.test(c));
    expect(withRevision.length).toBeGreaterThan(0);
    for (const c of withRevision) expect(c).toMatch(/--label org\.opencontainers\.image\.revision=/);
  });

  it('tells Podman and Buildah users to build in Docker format to keep the HEALTHCHECK', () => {
    const builds = commands.flatMap((c) => c.split('\n')).filter((l) => /^(podman|buildah) build/.test(l));
    expect(builds.length).toBeGreaterThanOrEqual(2);
    for (const line of builds) expect(line).toContain('--format docker');
  });
});
