// docs/kubernetes.md is what an operator types from: its Secret command and its figures must be the base's.
import { readFileSync } from 'node:fs';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { describe, expect, it } from 'vitest';
import { only, readBase } from './manifests.js';

const doc = readFileSync(new URL('../../docs/kubernetes.md', import.meta.url), 'utf8');
const pod = only<IDeployment>(readBase(), 'Deployment').spec?.template.spec;
const container = pod?.containers[0];
const secret = pod?.volumes?.find((v) => v.secret)?.secret;

describe('docs/kubernetes.md', () => {
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
