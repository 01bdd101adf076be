// docs/kubernetes.md is what an operator types from: its Secret command and its figures must be the base's.
import { readFileSync } from 'node:fs';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { describe, expect, it } from 'vitest';
import { only, parseYamlDocuments, readBase } from './manifests.js';

const doc = readFileSync(new URL('../../docs/kubernetes.md', import.meta.url), 'utf8');
const pod = only<IDeployment>(readBase(), 'Deployment').spec?.template.spec;
const container = pod?.containers[0];
const secret = pod?.volumes?.find((v) => v.secret)?.secret;

/** The YAML block of the doc whose first line names this file. */
function block(name: string): string {
  const found = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((b) => b.startsWith(`# ${name}`));
  if (found === undefined) throw new Error(`no yaml block for ${name}`);
  return found;
}

describe('docs/kubernetes.md', () => {
  it("patches the base's own Deployment, container, probe paths and port for a web config", () => {
    const text = block('overlays/production/probes-web-config.yaml');
    const patch = parseYamlDocuments(text)[0] as IDeployment;
    const base = only<IDeployment>(readBase(), 'Deployment');
    expect(patch.metadata?.name).toBe(base.metadata?.name);
    const patched = patch.spec?.template.spec?.containers[0];
    expect(patched?.name).toBe(container?.name);
    for (const probe of ['livenessProbe', 'readinessProbe'] as const) {
      const shipped = container?.[probe]?.httpGet;
      // The shipped probes speak plain HTTP without credentials: what TLS and basic auth break.
      expect(shipped?.scheme ?? 'HTTP').toBe('HTTP');
      expect(shipped?.httpHeaders).toBeUndefined();
      const get = patched?.[probe]?.httpGet;
      expect([get?.path, get?.port, get?.scheme]).toEqual([shipped?.path, shipped?.port, 'HTTPS']);
    }
    const header = patched?.readinessProbe?.httpGet?.httpHeaders?.[0];
    const [, encoded, plain] = /Basic (\S+)\s+# printf '([^']+)'/.exec(text) ?? [];
    expect(header?.value).toBe(`Basic ${encoded}`);
    expect(Buffer.from(encoded ?? '', 'base64').toString()).toBe(plain);
  });

  it('creates the Secret under the name and key the Deployment mounts', () => {
    const creates = [...doc.matchAll(/kubectl create secret generic (\S+) --from-file=([^=\s]+)=/g)];
    expect(creates.length).toBeGreaterThan(0);
    for (const [, name, key] of creates) {
      expect(name).toBe(secret?.secretName);
      expect(secret?.items?.map((i) => i.key)).toContain(key);
    }
    const file = container?.env?.find((e) => e.name === 'CITYAIR_API_KEY_FILE')?.value ?? '';
    expect(doc).toContain(`\`${file}\``);
  });

  it("quotes the Deployment's memory request, limit and caps", () => {
    const row = (what: string) => doc.split('\n').find((l) => l.startsWith(`| ${what} |`)) ?? '';
    expect(row('memory request')).toContain(`\`${container?.resources?.requests?.memory}\``);
    expect(row('memory limit')).toContain(`\`${container?.resources?.limits?.memory}\``);
    for (const flag of [
      '--upstream.max-body-size',
      '--upstream.max-stations',
      '--measurements.max-body-size',
    ]) {
      const cap = container?.args?.find((a) => a.startsWith(`${flag}=`))?.split('=')[1];
      expect(cap, flag).toBeDefined();
      expect(row(`\`${flag}\``), flag).toContain(`\`${cap}\``);
    }
    expect(row('CPU request')).toContain(`\`${container?.resources?.requests?.cpu}\``);
    expect(row('CPU limit')).toContain(`\`${container?.resources?.limits?.cpu}\``);
  });
});
