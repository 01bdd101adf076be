// Renders the base with kustomize itself (`kubectl kustomize`, the code behind `kubectl apply -k`) and checks
// what a cluster would receive. kubectl is not on npm or in Debian's archive; machines that lack it skip this.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IService } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { RULES_FILES } from '../../scripts/prometheus-rule.js';
import {
  assertValid,
  BASE_DIR,
  type Manifest,
  only,
  parseYamlDocuments,
  readBase,
  readKustomization,
  toManifest,
  unknownFields,
} from './manifests.js';

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const available = kubectl.status === 0;
if (!available)
  console.warn('kubectl not installed: the kustomize rendering of deploy/kubernetes is not checked');

function kustomize(dir: string): Manifest[] {
  const result = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 20_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return parseYamlDocuments(result.stdout).map((d) => toManifest('kubectl kustomize', d));
}

/** The YAML blocks of docs/kubernetes.md whose first line names a file of the example overlay. */
function overlayFiles(): Map<string, string> {
  const doc = readFileSync(new URL('../../docs/kubernetes.md', import.meta.url), 'utf8');
  const files = new Map<string, string>();
  for (const [, indent = '', body = ''] of doc.matchAll(/^( *)```yaml\n([\s\S]*?)^ *```/gm)) {
    const text = body.replace(new RegExp(`^${indent}`, 'gm'), '');
    const name = /^# (overlays\/\S+\.yaml)/.exec(text)?.[1];
    if (name) files.set(name, text);
  }
  return files;
}

describe.skipIf(!available)('kubectl kustomize deploy/kubernetes', () => {
  const render = () => kustomize(BASE_DIR);

  it('renders every object of the base, each valid against its schema with no unknown field', () => {
    const rendered = render();
    const names = (ms: { kind: string; name: string }[]) => ms.map((m) => `${m.kind}/${m.name}`).sort();
    expect(names(rendered)).toEqual(names(readBase()));
    for (const m of rendered) {
      assertValid(m);
      expect(unknownFields(m), `${m.kind} ${m.name}`).toEqual([]);
    }
  });

  it('sets the image and tag of kustomization.yaml, and leaves the alert templates alone', () => {
    const rendered = render();
    const image = readKustomization().images?.[0];
    const deployment = only<IDeployment>(rendered, 'Deployment');
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe(`${image?.newName}:${image?.newTag}`);
    const groups = RULES_FILES.flatMap(
      (file) =>
        (parseYaml(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as { groups: unknown[] })
          .groups,
    );
    expect(only<IPrometheusRule>(rendered, 'PrometheusRule').spec?.groups).toEqual(groups);
  });
});

describe.skipIf(!available)('the overlay of docs/kubernetes.md', () => {
  it('renders valid objects in its namespace, labelled for Prometheus, with the selectors untouched', () => {
    const files = overlayFiles();
    expect([...files.keys()].sort()).toEqual([
      'overlays/production/kustomization.yaml',
      'overlays/production/networkpolicy-from-prometheus.yaml',
      'overlays/production/probes-web-config.yaml',
    ]);
    const root = mkdtempSync(join(tmpdir(), 'cityair-overlay-'));
    try {
      // The layout the overlay's comment assumes: the repository's deploy/ two levels up.
      cpSync(BASE_DIR, join(root, 'deploy/kubernetes'), { recursive: true });
      for (const [name, text] of files) {
        mkdirSync(dirname(join(root, name)), { recursive: true });
        writeFileSync(join(root, name), text);
      }
      const rendered = kustomize(join(root, 'overlays/production'));
      expect(rendered.map((m) => m.kind).sort()).toEqual(
        readBase()
          .map((m) => m.kind)
          .sort(),
      );
      for (const m of rendered) {
        assertValid(m);
        expect(unknownFields(m), `${m.kind} ${m.name}`).toEqual([]);
        const meta = m.data.metadata as { namespace?: string; labels?: Record<string, string> };
        expect(meta.namespace, `${m.kind} ${m.name}`).toBe('monitoring');
        expect(meta.labels?.release, `${m.kind} ${m.name}`).toBe('kube-prometheus-stack');
      }
      const base = readBase();
      const selectorsOf = (ms: Manifest[]) => ({
        deployment: only<IDeployment>(ms, 'Deployment').spec?.selector,
        service: only<IService>(ms, 'Service').spec?.selector,
        policy: only<INetworkPolicy>(ms, 'NetworkPolicy').spec?.podSelector,
        monitor: only<IServiceMonitor>(ms, 'ServiceMonitor').spec.selector,
      });
      expect(selectorsOf(rendered)).toEqual(selectorsOf(base));
      const ingress = only<INetworkPolicy>(rendered, 'NetworkPolicy').spec?.ingress ?? [];
      expect(ingress).toHaveLength(1);
      expect(ingress[0]?.from?.[0]?.namespaceSelector?.matchLabels).toEqual({
        'kubernetes.io/metadata.name': 'monitoring',
      });
      expect(ingress[0]?.ports).toEqual([{ protocol: 'TCP', port: 9610 }]);
      const image = only<IDeployment>(rendered, 'Deployment').spec?.template.spec?.containers[0]?.image;
      expect(image).toBe('registry.example.com/cityair-exporter:0.1.0');

      // The probe patch for a web config, listed as the doc says: HTTPS probes, a header on readiness.
      const overlay = join(root, 'overlays/production/kustomization.yaml');
      writeFileSync(overlay, `${readFileSync(overlay, 'utf8')}  - path: probes-web-config.yaml\n`);
      const patched = kustomize(join(root, 'overlays/production'));
      for (const m of patched) assertValid(m);
      const container = only<IDeployment>(patched, 'Deployment').spec?.template.spec?.containers[0];
      expect(container?.livenessProbe?.httpGet).toMatchObject({
        path: '/healthz',
        port: 'metrics',
        scheme: 'HTTPS',
      });
      expect(container?.readinessProbe?.httpGet).toMatchObject({
        path: '/readyz',
        port: 'metrics',
        scheme: 'HTTPS',
      });
      expect(container?.readinessProbe?.httpGet?.httpHeaders?.[0]?.name).toBe('Authorization');
      expect(container?.readinessProbe?.periodSeconds).toBe(10);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
