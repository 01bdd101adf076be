// No Docker engine runs here, so the image is judged by its Dockerfile: pinned base, non-root, exec forms,
// a healthcheck without curl, no dev dependencies or sources in the runtime stage, and a tight context.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ciNodeVersions } from '../support/ci-run.js';
import {
  defaultArgs,
  execForm,
  expandVariables,
  finalStage,
  healthcheck,
  instructions,
  isIgnored,
  parseDockerfile,
  REPO_ROOT,
  readRepoDockerfile,
  type Stage,
  stageEnv,
  stageLabels,
  startCommand,
} from './dockerfile.js';

const dockerfile = readRepoDockerfile();
const runtime = finalStage(dockerfile);
const dockerignore = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8');
const ciRun = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  bin: Record<string, string>;
};

const stageNames = new Set(dockerfile.stages.flatMap((s) => (s.name ? [s.name] : [])));
const externalImages = dockerfile.stages.map((s) => s.image).filter((i) => !stageNames.has(i));
const NODE_IMAGE =
  /^(?:docker\.io\/library\/)?node:(\d+)\.(\d+)\.(\d+)-[a-z]+-slim(?:@sha256:[0-9a-f]{64})?$/;

/** Why the image's Node is not one .ci/run tests on exactly; undefined when it is. */
function untestedImageNode(ci: string, image: string): string | undefined {
  const [, major, minor, patch] = NODE_IMAGE.exec(image) ?? [];
  if (major === undefined) return `${image} is not node:X.Y.Z-<debian>-slim`;
  const version = `${major}.${minor}.${patch}`;
  const tested = ciNodeVersions(ci);
  return tested.includes(version)
    ? undefined
    : `the image has Node ${version}, .ci/run tests ${tested.join(', ')}`;
}

function stageNamed(name: string): Stage {
  const stage = dockerfile.stages.find((s) => s.name === name);
  if (!stage) throw new Error(`COPY --from=${name}: no stage of that name`);
  return stage;
}

describe('the reader', () => {
  it('joins continuation lines, skips comments inside them and parses flags and exec form', () => {
    const f = parseDockerfile(
      [
        'ARG X=1',
        'FROM node:1.2.3-trixie-slim AS b',
        'RUN a \\',
        '  # a comment inside',
        '  && b',
        'FROM node:1.2.3-trixie-slim',
        'COPY --from=b --chown=1:1 /app/dist ./dist',
        'HEALTHCHECK --interval=5s \\',
        '  CMD ["node", "-e", "x"]',
        'CMD node x.js',
      ].join('\n'),
    );
    expect(f.preamble.map((i) => i.keyword)).toEqual(['ARG']);
    expect(f.stages.map((s) => [s.image, s.name])).toEqual([
      ['node:1.2.3-trixie-slim', 'b'],
      ['node:1.2.3-trixie-slim', undefined],
    ]);
    expect(f.stages[0]?.instructions[0]).toMatchObject({ keyword: 'RUN', line: 3, rest: 'a   && b' });
    const last = finalStage(f);
    expect(instructions(last, 'COPY')[0]?.flags).toEqual({ from: 'b', chown: '1:1' });
    expect(healthcheck(last)?.argv).toEqual(['node', '-e', 'x']);
    expect(healthcheck(last)?.instruction.flags).toEqual({ interval: '5s' });
    expect(execForm(instructions(last, 'CMD')[0]?.rest ?? '')).toBeUndefined();
    expect(execForm('["a", 1]')).toBeUndefined();
  });

  it('expands build arguments in labels the way Docker does, empty when unset', () => {
    // Dockerfile text, so ${...} here is Docker's syntax, not a template placeholder.
    const dollar = (s: string) => s.replaceAll('@{', '${');
    const vars = { A: 'x', E: '' };
    expect(expandVariables(dollar('$A-@{A}-@{B}'), vars)).toBe('x-x-');
    expect(expandVariables(dollar('@{E:-d}|@{A:-d}|@{E:+p}|@{A:+p}'), vars)).toBe('d|x||p');
    const stage = finalStage(
      parseDockerfile(
        dollar(
          [
            'FROM node:1.2.3-trixie-slim',
            'ARG R=""',
            'ARG S=abc',
            'LABEL a="@{R}" \\',
            '  b=$S c="@{R:-none}"',
          ].join('\n'),
        ),
      ),
    );
    expect(defaultArgs(stage)).toEqual({ R: '', S: 'abc' });
    expect(stageLabels(stage, defaultArgs(stage))).toEqual({ a: '', b: 'abc', c: 'none' });
  });

  it('applies .dockerignore rules the way Docker does', () => {
    const rules = '*\n!src/\nsrc/**/*.tmp\n**/.env\n';
    expect(isIgnored(rules, 'README.md')).toBe(true);
    expect(isIgnored(rules, 'src/main.ts')).toBe(false);
    expect(isIgnored(rules, 'src/a/b.tmp')).toBe(true);
    expect(isIgnored(rules, 'src/.env')).toBe(true);
    expect(isIgnored('node_modules\n', 'node_modules/x/index.js')).toBe(true);
    expect(isIgnored('*.key\n', 'secrets/a.key')).toBe(false);
  });
});

describe('Dockerfile policy', () => {
  it('is a multi-stage build', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
  });

  it('pins every base image to an exact Node version on a slim image, the same everywhere', () => {
    expect(externalImages.length).toBeGreaterThan(0);
    for (const image of externalImages) {
      // A variable in FROM lets a build argument swap the pinned image for anything.
      expect(image, 'FROM must not use variables').not.toContain('$');
      expect(image).not.toMatch(/:latest\b|^[^:@]+$/);
      expect(image, 'FROM node:MAJOR.MINOR.PATCH-<debian>-slim').toMatch(NODE_IMAGE);
    }
    expect(new Set(externalImages).size, 'one Node version for build and runtime').toBe(1);
  });

  it('ships a Node version that .ci/run tests on, exactly', () => {
    expect(ciNodeVersions(ciRun).length).toBeGreaterThan(0);
    expect(untestedImageNode(ciRun, runtime.image)).toBeUndefined();
  });

  it('reads the versions of .ci/run and compares them with the image exactly', () => {
    const ci = 'step x\nfor version in 22.12.0 26.10.0; do\n  npx -y -p "node@$version" -- node x\ndone\n';
    expect(ciNodeVersions(ci)).toEqual(['22.12.0', '26.10.0']);
    expect(untestedImageNode(ci, 'node:26.10.0-trixie-slim')).toBeUndefined();
    expect(untestedImageNode(ci, 'node:26.9.0-trixie-slim')).toMatch(/26\.9\.0/);
    expect(untestedImageNode(ci, 'node:24.0.0-trixie-slim')).toMatch(/24\.0\.0/);
    expect(untestedImageNode(ci, 'node:latest')).toMatch(/not node:X\.Y\.Z/);
  });

  it('runs as a non-root numeric user in the final stage', () => {
    const user = instructions(runtime, 'USER').at(-1);
    expect(user, 'USER in the final stage').toBeDefined();
    const [uid, gid] = (user?.rest ?? '').split(':');
    expect(uid, 'numeric, so that Kubernetes runAsNonRoot can verify it').toMatch(/^\d+$/);
    expect(Number(uid)).not.toBe(0);
    if (gid !== undefined) expect(Number(gid)).not.toBe(0);
  });

  it('starts the exporter in exec form, the same way as the package bin', () => {
    const starts = [...instructions(runtime, 'ENTRYPOINT'), ...instructions(runtime, 'CMD')];
    expect(starts.length).toBeGreaterThan(0);
    for (const s of starts) expect(execForm(s.rest), `${s.keyword} on line ${s.line}`).toBeDefined();
    expect(startCommand(runtime).slice(0, 2)).toEqual(['node', pkg.bin['cityair-exporter']]);
    expect(stageEnv(runtime).NODE_ENV).toBe('production');
  });

  it("holds Node's young generation at 8 MiB through NODE_OPTIONS, which a user's own NODE_OPTIONS replaces", () => {
    // On the command line the flag would win over a NODE_OPTIONS given to docker run, silently.
    const options = stageEnv(runtime).NODE_OPTIONS ?? '';
    expect(options.split(/\s+/)).toContain('--max-semi-space-size=4');
    expect(startCommand(runtime).slice(0, 2)).toEqual(['node', pkg.bin['cityair-exporter']]);
    // Node accepts it from NODE_OPTIONS and V8 keeps to it while a plain script churns the young generation:
    // without it, V8's default lets the new space grow to 32 MiB here (Node 20, 22 and 26; 64 on 24). With it,
    // two 4 MiB semi-spaces: Node 20 and 22 report 8 MiB of new space, 24 and 26 up to 10.5 (their new space
    // counts more than the two semi-spaces).
    const churn = `const v8 = require('node:v8'); let most = 0, keep = [];
      for (let i = 0; i < 3e6; i++) {
        keep.push({ i, s: 'x' + i }); if (keep.length > 40000) keep = [];
        if (i % 5000 === 0) most = Math.max(most, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
      }
      console.log(most);`;
    const run = spawnSync(process.execPath, ['-e', churn], {
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: options },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(Number(run.stdout)).toBeGreaterThan(0);
    expect(Number(run.stdout)).toBeLessThanOrEqual(12 * 1024 * 1024);
  });

  it('has an exec-form HEALTHCHECK on /healthz with node, no curl or wget, and a timeout', () => {
    const hc = healthcheck(runtime);
    expect(hc, 'HEALTHCHECK in the final stage').toBeDefined();
    expect(hc?.argv, 'HEALTHCHECK CMD [...] (exec form, not NONE)').toBeDefined();
    const argv = hc?.argv ?? [];
    expect(argv[0]).toBe('node');
    expect(argv.join(' ')).not.toMatch(/\b(curl|wget)\b/);
    expect(argv.join(' ')).toContain('/healthz');
    expect(hc?.instruction.flags.timeout).toMatch(/^\d+s$/);
    expect(hc?.instruction.flags.interval).toMatch(/^\d+s$/);
    // The probe's own timeouts (one HTTP try, one HTTPS try) must add up to less than Docker's, so a hung
    // server shows as a failed probe rather than a killed one.
    const inner = /timeout:(\d+)/.exec(argv.join(' '))?.[1];
    expect(2 * Number(inner)).toBeLessThan(Number.parseInt(hc?.instruction.flags.timeout ?? '0', 10) * 1000);
  });

  it('exposes 9610', () => {
    const ports = instructions(runtime, 'EXPOSE').flatMap((e) => e.rest.split(/\s+/));
    expect(ports).toContain('9610');
  });

  it('copies only the built code, production dependencies and package.json into the runtime stage', () => {
    expect(instructions(runtime, 'ADD'), 'ADD fetches URLs and unpacks archives; use COPY').toEqual([]);
    for (const copy of instructions(runtime, 'COPY')) {
      const parts = copy.rest.split(/\s+/);
      const sources = parts.slice(0, -1);
      for (const source of sources) {
        expect(source, `line ${copy.line}`).not.toMatch(/(^|\/)(src|test|\.)(\/|$)|\.ts$|^\*|^\.\/?$/);
      }
      const from = copy.flags.from;
      if (from === undefined) {
        expect(sources, `line ${copy.line}: from the context only package.json`).toEqual(['package.json']);
        continue;
      }
      const stage = stageNamed(from);
      for (const source of sources) {
        if (/node_modules\/?$/.test(source)) {
          // The stage that provides node_modules must have installed or pruned without devDependencies.
          const installs = instructions(stage, 'RUN').filter((r) =>
            /\bnpm (ci|install|i|prune)\b/.test(r.rest),
          );
          expect(installs.length, `stage ${from} installs node_modules`).toBeGreaterThan(0);
          expect(installs.at(-1)?.rest, `stage ${from}: last npm step`).toMatch(/--omit=dev|--production/);
        } else {
          expect(source, `line ${copy.line}: only dist/ comes from a build stage`).toMatch(
            /^\/app\/dist\/?$/,
          );
        }
      }
    }
  });

  it('writes no label with an empty value when built without build arguments', () => {
    // An empty org.opencontainers.image.revision claims an image built from no commit; tools show it as such.
    const labels = stageLabels(runtime, defaultArgs(runtime));
    expect(Object.keys(labels).length).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(labels)) expect(value.trim(), key).not.toBe('');
  });

  it('bakes no secret into any stage', () => {
    for (const stage of dockerfile.stages) {
      for (const ins of [
        ...instructions(stage, 'ENV'),
        ...instructions(stage, 'ARG'),
        ...dockerfile.preamble,
      ]) {
        expect(ins.rest, `line ${ins.line}`).not.toMatch(/(KEY|SECRET|TOKEN|PASSWORD)[A-Z_]*=/i);
      }
    }
  });
});

describe('.dockerignore', () => {
  it('keeps local builds, dependencies, VCS data, tests and secrets out of the context', () => {
    for (const path of [
      'node_modules/fastify/package.json',
      'dist/main.js',
      '.git/HEAD',
      'test/container/pid1.e2e.test.ts',
      'coverage/index.html',
      '.env',
      'cityair.key',
      'secrets/cityair_api_key',
      'dashboards/cityair.json',
      '.ci/run',
    ]) {
      expect(isIgnored(dockerignore, path), path).toBe(true);
    }
  });

  it('keeps secrets and stray files inside src/ out too: only TypeScript sources enter', () => {
    for (const path of [
      'src/.env',
      'src/cityair.key',
      'src/secrets/cityair_api_key',
      'src/demo/.env.local',
      'src/http/server.ts~',
      'src/.DS_Store',
    ]) {
      expect(isIgnored(dockerignore, path), path).toBe(true);
    }
  });

  it('lets in every TypeScript file under src/, which the build compiles', () => {
    const sources = (readdirSync(`${REPO_ROOT}src`, { recursive: true }) as string[])
      .map((p) => `src/${p}`)
      .filter((p) => p.endsWith('.ts'));
    expect(sources).toContain('src/main.ts');
    for (const path of sources) expect(isIgnored(dockerignore, path), path).toBe(false);
  });

  it('lets in every file the Dockerfile copies from the context', () => {
    const needed = dockerfile.stages
      .flatMap((s) => instructions(s, 'COPY'))
      .filter((c) => c.flags.from === undefined)
      .flatMap((c) => c.rest.split(/\s+/).slice(0, -1));
    expect(needed).toContain('src');
    for (const path of needed.map((p) => (p === 'src' ? 'src/main.ts' : p))) {
      expect(isIgnored(dockerignore, path), path).toBe(false);
    }
  });
});

describe('shell in RUN instructions', () => {
  const shellcheck = spawnSync('shellcheck', ['--version'], { encoding: 'utf8' });
  const available = shellcheck.status === 0;
  if (!available && process.env.CI !== 'true') {
    console.warn('shellcheck not installed (apt-get install shellcheck): RUN instructions not checked');
  }

  it.skipIf(!available && process.env.CI !== 'true')('passes shellcheck', () => {
    const runs = dockerfile.stages.flatMap((s) => instructions(s, 'RUN')).filter((r) => !execForm(r.rest));
    expect(runs.length).toBeGreaterThan(0);
    // Docker runs shell-form RUN with /bin/sh -c, so check as POSIX sh.
    const script = `#!/bin/sh\n${runs.map((r) => `# line ${r.line}\n${r.rest}\n`).join('')}`;
    const result = spawnSync('shellcheck', ['--shell=sh', '--format=gcc', '-'], {
      input: script,
      encoding: 'utf8',
    });
    expect(result.error).toBeUndefined();
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
