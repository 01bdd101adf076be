// The kustomize base in deploy/kubernetes, checked offline: every object against its Kubernetes or Prometheus
// Operator schema, the security settings an operator relies on, and the wiring between the objects.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IService } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { RULES_FILES } from '../../scripts/prometheus-rule.js';
import { parseCli } from '../../src/cli.js';
import { finalStage, instructions, readRepoDockerfile } from '../container/dockerfile.js';
import {
  assertValid,
  BASE_DIR,
  type Manifest,
  manifestFiles,
  only,
  quantityBytes,
  readBase,
  readKustomization,
  schemaErrors,
  selects,
  toManifest,
  unknownFields,
} from './manifests.js';

// The memory figures the limit is sized from (docs/kubernetes.md, "Memory and CPU"): the exporter's peak at
// 10,000 stations with readings on (docs/benchmarks.md, "Hostile answers") and its steady state at 1,000 without.
// Update them with the benchmark's tables.
const PEAK_MIB = 300;
const STEADY_MIB = 116;
const MiB = 1024 ** 2;

const kustomization = readKustomization();
const base = readBase();
const deployment = only<IDeployment>(base, 'Deployment');
const service = only<IService>(base, 'Service');
const networkPolicy = only<INetworkPolicy>(base, 'NetworkPolicy');
const serviceMonitor = only<IServiceMonitor>(base, 'ServiceMonitor');
const prometheusRule = only<IPrometheusRule>(base, 'PrometheusRule');
const pod = deployment.spec?.template.spec;
const container = pod?.containers.find((c) => c.name === 'exporter') as IContainer;
const podLabels = deployment.spec?.template.metadata?.labels;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The container port a Service targetPort, probe or policy port means, by number or by name. */
function containerPort(port: string | number | undefined): number | undefined {
  const found = container.ports?.find((p) => p.name === port || p.containerPort === port);
  return found?.containerPort;
}

describe('schema validation (kubernetes-models, offline)', () => {
  it.each(base.map((m) => [`${m.source}: ${m.kind} ${m.name}`, m] as const))('%s is valid', (_, m) => {
    assertValid(m);
    expect(unknownFields(m), 'fields the schema does not know').toEqual([]);
  });

  it('catches wrong types, missing fields and misspelt fields', () => {
    const broken = structuredClone(deployment) as unknown as {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    const c = broken.spec.template.spec.containers[0] as Record<string, unknown>;
    c.securityContext = { readOnlyRootFileSystem: true, runAsUser: '1000' };
    const m = toManifest('broken.yaml', broken);
    expect(schemaErrors(m)).toMatch(/runAsUser must be integer/);
    c.securityContext = { readOnlyRootFileSystem: true };
    expect(unknownFields(m)).toEqual([
      '/spec/template/spec/containers/0/securityContext/readOnlyRootFileSystem',
    ]);
    const noSelector = toManifest('x.yaml', { ...serviceMonitor, spec: { endpoints: [] } });
    expect(schemaErrors(noSelector)).toMatch(/selector/);
  });
});

describe('kustomization.yaml', () => {
  it('lists every manifest of the directory, and only those', () => {
    expect([...kustomization.resources].sort()).toEqual(manifestFiles());
  });

  it('holds no Secret: the key never sits in the repository', () => {
    expect(base.map((m) => m.kind)).not.toContain('Secret');
    expect(readFileSync(join(BASE_DIR, 'kustomization.yaml'), 'utf8')).not.toMatch(/secretGenerator/);
  });

  it("sets the image the Deployment names, tagged with the package's version", () => {
    const image = kustomization.images?.find((i) => i.name === container.image);
    expect(image, `an images: entry named ${container.image}`).toBeDefined();
    expect(image?.newTag, 'bump newTag in deploy/kubernetes/kustomization.yaml with the release').toBe(
      pkg.version,
    );
  });
});

describe('Deployment security', () => {
  const podSc = pod?.securityContext ?? {};
  const sc = { ...podSc, ...container.securityContext };

  it('runs as non-root uid 1000, the numeric USER of the image', () => {
    const user = instructions(finalStage(readRepoDockerfile()), 'USER').at(-1)?.rest ?? '';
    const [uid, gid] = user.split(':').map(Number);
    expect(sc.runAsNonRoot).toBe(true);
    expect(sc.runAsUser).toBe(1000);
    expect(sc.runAsUser).toBe(uid);
    expect(sc.runAsGroup).toBe(gid);
  });

  it('has a read-only root filesystem, no capabilities, no privilege escalation, seccomp RuntimeDefault', () => {
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(container.securityContext?.privileged ?? false).toBe(false);
    expect(container.securityContext?.capabilities?.drop).toEqual(['ALL']);
    expect(container.securityContext?.capabilities?.add ?? []).toEqual([]);
    expect(sc.seccompProfile?.type).toBe('RuntimeDefault');
  });

  it('shares nothing with the node and holds no API token', () => {
    expect(pod?.hostNetwork ?? false).toBe(false);
    expect(pod?.hostPID ?? false).toBe(false);
    expect(pod?.hostIPC ?? false).toBe(false);
    expect(pod?.automountServiceAccountToken).toBe(false);
    expect(pod?.containers).toHaveLength(1);
    expect(pod?.initContainers ?? []).toEqual([]);
  });

  it('reads the key from a mounted Secret file that only its own group can read', () => {
    const env = container.env ?? [];
    expect(env.map((e) => e.name)).not.toContain('CITYAIR_API_KEY');
    expect(env.filter((e) => e.valueFrom?.secretKeyRef)).toEqual([]);
    const file = env.find((e) => e.name === 'CITYAIR_API_KEY_FILE')?.value ?? '';
    const mount = container.volumeMounts?.find((v) => file.startsWith(`${v.mountPath}/`));
    expect(mount, `a volume mounted above ${file}`).toBeDefined();
    expect(mount?.readOnly).toBe(true);
    const secret = pod?.volumes?.find((v) => v.name === mount?.name)?.secret;
    expect(secret?.secretName).toBeTruthy();
    expect(secret?.optional ?? false, 'no key, no start: a missing Secret must hold the pod').toBe(false);
    const item = secret?.items?.find((i) => `${mount?.mountPath}/${i.path}` === file);
    expect(item, `${file} is an item of the Secret`).toBeDefined();
    const mode = item?.mode ?? secret?.defaultMode ?? 0o644;
    expect(mode & 0o007, 'not readable by others').toBe(0);
    // Secret files belong to root and to the pod's fsGroup: the exporter reads through its group.
    expect(mode & 0o040).toBe(0o040);
    expect(pod?.securityContext?.fsGroup).toBe(sc.runAsGroup);
  });

  it("starts with arguments and environment the exporter's own parser accepts", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cityair-k8s-'));
    try {
      const key = join(dir, 'api-key');
      writeFileSync(key, 'manifest-test-key-0123456789abcdef\n');
      const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? '']));
      const action = parseCli(container.args ?? [], { ...env, CITYAIR_API_KEY_FILE: key });
      expect(action.kind).toBe('run');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('probes liveness on /healthz and readiness on /readyz, on the metrics port', () => {
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(containerPort(container.livenessProbe?.httpGet?.port)).toBe(9610);
    expect(containerPort(container.readinessProbe?.httpGet?.port)).toBe(9610);
  });

  it('limits memory to the peak plus one answer at each body cap, and requests the steady state', () => {
    const action = parseCli(container.args ?? [], { CITYAIR_API_KEY: 'manifest-test-key-0123456789abcdef' });
    if (action.kind !== 'run') throw new Error('the arguments do not start the exporter');
    const limit = quantityBytes(container.resources?.limits?.memory ?? 0);
    const request = quantityBytes(container.resources?.requests?.memory ?? 0);
    const { upstream, readings } = action.config;
    const answers = upstream.maxBodyBytes + readings.maxBodyBytes * readings.concurrency;
    expect(limit).toBeGreaterThanOrEqual(PEAK_MIB * MiB + answers);
    expect(request).toBeGreaterThanOrEqual(STEADY_MIB * MiB);
    expect(request).toBeLessThanOrEqual(limit);
    expect(container.resources?.requests?.cpu).toBeDefined();
  });

  it('runs one replica (two would double the calls to the CityAir API) and its selector matches its pods', () => {
    expect(deployment.spec?.replicas).toBe(1);
    expect(selects(deployment.spec?.selector.matchLabels, podLabels)).toBe(true);
  });
});

describe('Service, NetworkPolicy and ServiceMonitor match the Deployment', () => {
  it('the Service selects the pods and serves port 9610, named metrics, on the container port', () => {
    expect(selects(service.spec?.selector, podLabels)).toBe(true);
    const port = service.spec?.ports?.find((p) => p.name === 'metrics');
    expect(port?.port).toBe(9610);
    expect(containerPort(port?.targetPort ?? port?.port)).toBe(9610);
    expect(service.spec?.ports).toHaveLength(1);
  });

  it('the NetworkPolicy selects the pods and admits TCP 9610 only', () => {
    expect(selects(networkPolicy.spec?.podSelector?.matchLabels, podLabels)).toBe(true);
    expect(networkPolicy.spec?.policyTypes).toContain('Ingress');
    const rules = networkPolicy.spec?.ingress ?? [];
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.ports?.length, 'a rule without ports admits every port').toBeGreaterThan(0);
      for (const p of rule.ports ?? []) {
        expect(p.protocol ?? 'TCP').toBe('TCP');
        expect(containerPort(p.port)).toBe(9610);
        expect(p.endPort).toBeUndefined();
      }
    }
  });

  it('the ServiceMonitor selects the Service in its own namespace and scrapes its metrics port', () => {
    expect(selects(serviceMonitor.spec.selector.matchLabels, service.metadata?.labels)).toBe(true);
    expect(serviceMonitor.spec.namespaceSelector).toBeUndefined();
    const endpoints = serviceMonitor.spec.endpoints ?? [];
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]?.port).toBe('metrics');
    expect(service.spec?.ports?.map((p) => p.name)).toContain(endpoints[0]?.port);
    expect(endpoints[0]?.path ?? '/metrics').toBe('/metrics');
  });

  it('the ServiceMonitor names the scrape job the shipped alerts select', () => {
    const rulesText = readFileSync(
      new URL('../../deploy/prometheus/cityair-rules.yml', import.meta.url),
      'utf8',
    );
    const job = /\bup\{job="([^"]+)"\}/.exec(rulesText)?.[1];
    expect(job).toBeDefined();
    const relabel = serviceMonitor.spec.endpoints?.[0]?.relabelings?.find((r) => r.targetLabel === 'job');
    expect(relabel?.action ?? 'replace').toBe('replace');
    expect(relabel?.replacement).toBe(job);
  });

  it('the PrometheusRule holds exactly the groups of the rules files of deploy/prometheus', () => {
    const groups = RULES_FILES.flatMap(
      (file) =>
        (parseYaml(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as { groups: unknown[] })
          .groups,
    );
    expect(prometheusRule.spec?.groups).toEqual(groups);
  });

  it('every object carries the labels the selectors use', () => {
    for (const m of base as Manifest[]) {
      const labels = (m.data.metadata as { labels?: Record<string, string> }).labels;
      expect(labels?.['app.kubernetes.io/name'], `${m.kind} ${m.name}`).toBe('cityair-exporter');
    }
  });
});
