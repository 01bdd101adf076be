// deploy/: what CI can prove without a Docker engine. The Compose file wires services, mounts and addresses so that
// `docker compose up` shows dashboards (deploy-tools.e2e.test.ts runs promtool and amtool on the configs).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ALERTMANAGER_FILE, DASHBOARD_FILES, ROOT, RULE_FILES } from './model.js';

const DEPLOY = join(ROOT, 'deploy');
const PROMETHEUS_FILE = join(DEPLOY, 'prometheus/prometheus.yml');

const readYaml = (path: string): unknown => parseYaml(readFileSync(path, 'utf8'));

const service = z.object({
  image: z.string(),
  build: z.object({ context: z.string() }).optional(),
  command: z.array(z.string()).optional(),
  volumes: z.array(z.string()).optional(),
  ports: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  depends_on: z.array(z.string()).optional(),
});
const compose = z.object({
  services: z.record(z.string(), service),
  volumes: z.record(z.string(), z.null()).optional(),
});

const prometheusConfig = z.object({
  rule_files: z.array(z.string()),
  remote_write: z.array(z.object({ url: z.string() })),
  storage: z.object({ tsdb: z.object({ out_of_order_time_window: z.string() }) }),
  alerting: z.object({
    alertmanagers: z.array(z.object({ static_configs: z.array(z.object({ targets: z.array(z.string()) })) })),
  }),
  scrape_configs: z.array(
    z.object({ job_name: z.string(), static_configs: z.array(z.object({ targets: z.array(z.string()) })) }),
  ),
});
const datasources = z.object({
  datasources: z.array(z.object({ type: z.string(), url: z.string(), isDefault: z.boolean().optional() })),
});
const dashboardProviders = z.object({
  providers: z.array(z.object({ type: z.string(), options: z.object({ path: z.string() }) })),
});

const stack = compose.parse(readYaml(join(DEPLOY, 'compose.yaml')));
const prometheus = prometheusConfig.parse(readYaml(PROMETHEUS_FILE));

/** Bind mounts of a service as [host path resolved from deploy/, container path]. */
function bindMounts(name: string): [string, string][] {
  return (stack.services[name]?.volumes ?? [])
    .map((v) => v.split(':'))
    .filter(([host]) => host?.startsWith('.'))
    .map(([host, container]) => [resolve(DEPLOY, host ?? ''), container ?? '']);
}

/** The host path that a container path of a service comes from. */
function hostPathOf(name: string, containerPath: string): string | undefined {
  for (const [host, container] of bindMounts(name)) {
    if (containerPath === container) return host;
    if (containerPath.startsWith(`${container}/`))
      return join(host, containerPath.slice(container.length + 1));
  }
  return undefined;
}

describe('the Compose stack', () => {
  it('runs the exporter in demo mode, Prometheus, Alertmanager, VictoriaMetrics and Grafana', () => {
    expect(Object.keys(stack.services).sort()).toEqual([
      'alertmanager',
      'exporter',
      'grafana',
      'prometheus',
      'victoriametrics',
    ]);
    expect(stack.services.exporter?.command).toContain('--demo');
    const context = resolve(DEPLOY, stack.services.exporter?.build?.context ?? '.');
    expect(existsSync(join(context, 'Dockerfile'))).toBe(true);
  });

  it('pins every image to a version', () => {
    for (const [name, s] of Object.entries(stack.services)) {
      if (s.build) continue;
      expect(s.image, name).toMatch(/:v?\d+\.\d+\.\d+$/);
    }
  });

  it('mounts only paths that exist in the repository', () => {
    for (const name of Object.keys(stack.services)) {
      for (const [host] of bindMounts(name)) expect(existsSync(host), `${name}: ${host}`).toBe(true);
    }
  });

  it('gives Prometheus its config and the shipped rules at the paths the config names', () => {
    const configFlag = stack.services.prometheus?.command?.find((c) => c.startsWith('--config.file='));
    const configPath = configFlag?.slice('--config.file='.length) ?? '';
    expect(hostPathOf('prometheus', configPath)).toBe(PROMETHEUS_FILE);
    const configDir = configPath.slice(0, configPath.lastIndexOf('/'));
    expect(prometheus.rule_files.map((rules) => hostPathOf('prometheus', join(configDir, rules)))).toEqual(
      RULE_FILES.map((f) => f.rules),
    );
  });

  it('points Prometheus at the exporter (as job cityair) and at Alertmanager by service name', () => {
    const job = prometheus.scrape_configs.find((j) => j.job_name === 'cityair');
    // CityAirExporterDown selects up{job="cityair"}.
    expect(job?.static_configs.flatMap((c) => c.targets)).toEqual(['exporter:9610']);
    expect(stack.services.exporter?.ports).toContain('127.0.0.1:9610:9610');
    const am = prometheus.alerting.alertmanagers.flatMap((a) => a.static_configs.flatMap((c) => c.targets));
    expect(am).toEqual(['alertmanager:9093']);
    const amConfig = stack.services.alertmanager?.command?.find((c) => c.startsWith('--config.file='));
    expect(hostPathOf('alertmanager', amConfig?.slice('--config.file='.length) ?? '')).toBe(
      ALERTMANAGER_FILE,
    );
  });

  it('provisions Grafana with the Prometheus data source and every dashboard', () => {
    const provisioning = hostPathOf('grafana', '/etc/grafana/provisioning') ?? '';
    const ds = datasources.parse(readYaml(join(provisioning, 'datasources/prometheus.yml'))).datasources;
    expect(ds).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true }),
    ]);
    expect(Object.keys(stack.services)).toContain(new URL(ds[0]?.url ?? 'http://x').hostname);

    const providers = dashboardProviders.parse(
      readYaml(join(provisioning, 'dashboards/cityair.yml')),
    ).providers;
    expect(providers).toHaveLength(1);
    const dir = hostPathOf('grafana', providers[0]?.options.path ?? '');
    for (const file of Object.values(DASHBOARD_FILES)) expect(file.startsWith(`${dir}/`), file).toBe(true);
    const home = stack.services.grafana?.environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH ?? '';
    expect(hostPathOf('grafana', home)).toBe(DASHBOARD_FILES.stations);
  });

  it('has Prometheus write every sample to VictoriaMetrics, and Grafana read it as a second data source', () => {
    expect(prometheus.remote_write.map((w) => w.url)).toEqual(['http://victoriametrics:8428/api/v1/write']);
    expect(stack.services.victoriametrics?.command).toContain('-httpListenAddr=:8428');
    const provisioning = hostPathOf('grafana', '/etc/grafana/provisioning') ?? '';
    const ds = datasources.parse(readYaml(join(provisioning, 'datasources/victoriametrics.yml'))).datasources;
    expect(ds).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://victoriametrics:8428', isDefault: false }),
    ]);
  });

  it('lets a backfill write recent gaps into Prometheus', () => {
    expect(stack.services.prometheus?.command).toContain('--web.enable-remote-write-receiver');
    expect(prometheus.storage.tsdb.out_of_order_time_window).toBe('30d');
  });
});
