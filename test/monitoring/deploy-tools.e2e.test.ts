// deploy/: the configs pass the tools of the daemons that will load them. Spawns promtool and amtool, hence the
// e2e name; deploy.test.ts checks the Compose stack in process.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { amtoolPath } from '../support/alertmanager.js';
import { promtoolPath } from '../support/promtool.js';
import { ALERTMANAGER_FILE, ROOT } from './model.js';

const PROMETHEUS_FILE = join(ROOT, 'deploy/prometheus/prometheus.yml');

describe.skipIf(!promtoolPath())('promtool', () => {
  it('accepts prometheus.yml and the rules file it loads', () => {
    const run = spawnSync(promtoolPath() ?? 'promtool', ['check', 'config', PROMETHEUS_FILE], {
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('cityair-rules.yml');
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
