// deploy/: the configs pass the tools of the daemons that will load them. Spawns promtool and amtool, hence the
// e2e name; deploy.test.ts checks the Compose stack in process.
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { amtoolPath } from '../support/alertmanager.js';
import { promtoolPath } from '../support/promtool.js';
import { ALERTMANAGER_FILE, ROOT, RULE_FILES } from './model.js';

const PROMETHEUS_FILE = join(ROOT, 'deploy/prometheus/prometheus.yml');

describe.skipIf(!promtoolPath())('promtool', () => {
  it('accepts prometheus.yml and the rules files it loads', () => {
    const run = spawnSync(promtoolPath() ?? 'promtool', ['check', 'config', PROMETHEUS_FILE], {
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`SUCCESS: ${RULE_FILES.length} rule files found`);
    for (const f of RULE_FILES) expect(run.stdout).toContain(basename(f.rules));
  });
});

describe.skipIf(!amtoolPath())('amtool', () => {
  it('accepts alertmanager.yml', () => {
    const run = spawnSync(amtoolPath() ?? 'amtool', ['check-config', ALERTMANAGER_FILE], {
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
