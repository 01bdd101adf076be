// Renders the base with kustomize itself (`kubectl kustomize`, the code behind `kubectl apply -k`) and checks
// what a cluster would receive. kubectl is not on npm or in Debian's archive; machines that lack it skip this.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  assertValid,
  BASE_DIR,
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

describe.skipIf(!available)('kubectl kustomize deploy/kubernetes', () => {
  const render = () => {
    const result = spawnSync('kubectl', ['kustomize', BASE_DIR], { encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return parseYamlDocuments(result.stdout).map((d) => toManifest('kubectl kustomize', d));
  };

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
    const rules = parseYaml(
      readFileSync(new URL('../../deploy/prometheus/cityair-rules.yml', import.meta.url), 'utf8'),
    ) as { groups: unknown };
    expect(only<IPrometheusRule>(rendered, 'PrometheusRule').spec?.groups).toEqual(rules.groups);
  });
});
