// Reads the kustomize base of deploy/kubernetes and checks objects against the Kubernetes and Prometheus
// Operator schemas that npm packages ship (kubernetes-models), offline: no cluster runs here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IService } from 'kubernetes-models/v1/Service';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { REPO_ROOT } from '../container/dockerfile.js';

export const BASE_DIR = join(REPO_ROOT, 'deploy/kubernetes');

/** Every kind the base may hold, with the model that validates it. */
const MODELS = {
  'apps/v1 Deployment': (data: unknown) => new Deployment(data as IDeployment),
  'v1 Service': (data: unknown) => new Service(data as IService),
  'networking.k8s.io/v1 NetworkPolicy': (data: unknown) => new NetworkPolicy(data as INetworkPolicy),
  'monitoring.coreos.com/v1 ServiceMonitor': (data: unknown) => new ServiceMonitor(data as IServiceMonitor),
  'monitoring.coreos.com/v1 PrometheusRule': (data: unknown) => new PrometheusRule(data as IPrometheusRule),
} as const satisfies Record<string, (data: unknown) => { validate(): void }>;

type KindKey = keyof typeof MODELS;

const kustomizationSchema = z
  .object({
    apiVersion: z.literal('kustomize.config.k8s.io/v1beta1'),
    kind: z.literal('Kustomization'),
    resources: z.array(z.string()),
    images: z.array(z.object({ name: z.string(), newName: z.string(), newTag: z.string() })).optional(),
  })
  .strict();
export type Kustomization = z.infer<typeof kustomizationSchema>;

export function readKustomization(dir = BASE_DIR): Kustomization {
  return kustomizationSchema.parse(
    parseYamlDocuments(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'))[0],
  );
}

/** The YAML files of the base other than kustomization.yaml. */
export function manifestFiles(dir = BASE_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml')
    .sort();
}

export function parseYamlDocuments(text: string): unknown[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('; '));
    return doc.toJS() as unknown;
  });
}

export interface Manifest {
  readonly source: string;
  readonly kind: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly data: Record<string, unknown>;
}

const objectHead = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.object({ name: z.string() }).loose(),
});

export function toManifest(source: string, data: unknown): Manifest {
  const head = objectHead.parse(data);
  return {
    source,
    kind: head.kind,
    apiVersion: head.apiVersion,
    name: head.metadata.name,
    data: data as Record<string, unknown>,
  };
}

/** The objects of the resources kustomization.yaml lists, in its order. */
export function readBase(dir = BASE_DIR): Manifest[] {
  return readKustomization(dir).resources.flatMap((file) =>
    parseYamlDocuments(readFileSync(join(dir, file), 'utf8'))
      .filter((d) => d !== null)
      .map((d) => toManifest(file, d)),
  );
}

function kindKey(m: Manifest): KindKey {
  const key = `${m.apiVersion} ${m.kind}`;
  if (!(key in MODELS)) throw new Error(`${m.source}: no schema for ${key}`);
  return key as KindKey;
}

/** Schema violations of one object: "" when valid, else the validator's message. */
export function schemaErrors(m: Manifest, data: unknown = m.data): string {
  try {
    MODELS[kindKey(m)](data).validate();
    return '';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Fails with the validator's message unless the object matches its schema. */
export function assertValid(m: Manifest): void {
  const errors = schemaErrors(m);
  if (errors !== '') throw new Error(`${m.source} (${m.kind} ${m.name}): ${errors}`);
}

const PROBE = Symbol('probe');

/**
 * Fields the schema does not know (a misspelt `readOnlyRootFileSystem` is silently ignored by the
 * validators, and by some clusters). The compiled validators type-check every field they know, so each field
 * is replaced in turn by a value no schema accepts: a field whose replacement still validates is unknown.
 */
export function unknownFields(m: Manifest): string[] {
  const unknown: string[] = [];
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, [...path, i]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const at = [...path, key];
        if (schemaErrors(m, withValueAt(m.data, at, PROBE)) === '') unknown.push(`/${at.join('/')}`);
        else visit(child, at);
      }
    }
  };
  visit(m.data, []);
  return unknown;
}

function withValueAt(data: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(data);
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path.at(-1);
  if (last !== undefined) parent[last] = value;
  return copy;
}

/** The one object of a kind, typed by its schema once it has passed it. */
export function only<T>(manifests: readonly Manifest[], kind: string): T {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  const [m] = found as [Manifest];
  assertValid(m);
  return m.data as T;
}

/** Whether every pair of a matchLabels selector is among the labels. */
export function selects(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
) {
  const pairs = Object.entries(selector ?? {});
  return pairs.length > 0 && pairs.every(([k, v]) => labels?.[k] === v);
}

/** Kubernetes quantities as bytes: 96Mi, 1Gi, 128M, 100000. */
export function quantityBytes(q: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(String(q));
  if (!match?.[1]) throw new Error(`not a memory quantity: ${q}`);
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, k: 1e3, M: 1e6, G: 1e9 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}
