// A real Prometheus scraping the exporter over HTTPS with basic_auth and a client certificate, as an operator
// would configure it; and two jobs that get the credentials or the certificate wrong and must be refused.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createTestPki, type TestPki } from '../support/certs.js';
import { type ExporterProcess, startExporterProcess } from '../support/exporter-process.js';
import { eventually } from '../support/http.js';
import { prometheusPath, type RunningPrometheus, startPrometheus } from '../support/prometheus.js';
import { hashOf } from './helpers.js';

const PASSWORD = 'prometheus-scrape-password';

let pki: TestPki;
let exporter: ExporterProcess;
let prometheus: RunningPrometheus;

describe.skipIf(!prometheusPath())('Prometheus over HTTPS', () => {
  beforeAll(async () => {
    pki = createTestPki();
    pki.issue('server', 'server');
    const client = pki.issue('prometheus', 'client');
    const webConfig = join(pki.dir, 'web.yml');
    writeFileSync(
      webConfig,
      stringify({
        tls_server_config: {
          cert_file: 'server.crt',
          key_file: 'server.key',
          client_auth_type: 'RequireAndVerifyClientCert',
          client_ca_file: 'ca.crt',
        },
        basic_auth_users: { prometheus: hashOf(PASSWORD, 10) },
      }),
    );
    exporter = await startExporterProcess({ args: ['--demo', `--web.config.file=${webConfig}`] });
    const target = new URL(exporter.url).host;
    const files = { 'ca.crt': pki.ca.cert, 'client.crt': client.cert, 'client.key': client.key };
    const job = (name: string, extra: Record<string, unknown>) => ({
      job_name: name,
      scheme: 'https',
      static_configs: [{ targets: [target] }],
      ...extra,
    });
    prometheus = await startPrometheus({
      files,
      scrapeConfigs: [
        job('cityair', {
          basic_auth: { username: 'prometheus', password: PASSWORD },
          tls_config: { ca_file: 'ca.crt', cert_file: 'client.crt', key_file: 'client.key' },
        }),
        job('wrong-password', {
          basic_auth: { username: 'prometheus', password: 'not-it' },
          tls_config: { ca_file: 'ca.crt', cert_file: 'client.crt', key_file: 'client.key' },
        }),
        job('no-client-cert', {
          basic_auth: { username: 'prometheus', password: PASSWORD },
          tls_config: { ca_file: 'ca.crt' },
        }),
      ],
    });
  });
  afterAll(async () => {
    await prometheus?.stop();
    await exporter?.stop();
    pki?.cleanup();
  });

  it('scrapes with tls_config and basic_auth: the target is up and cityair_up is queryable', async () => {
    const up = await prometheus.waitForTargetsUp({ count: 1 });
    expect(up.map((t) => t.job)).toEqual(['cityair']);
    const samples = await prometheus.waitForQuery('cityair_up{job="cityair"}', (s) => s.length === 1);
    expect(samples[0]?.value).toBe(1);
  });

  it('marks the jobs with a wrong password or without a client certificate down', async () => {
    const byJob = await eventually(async () => {
      const targets = await prometheus.targets();
      return targets.every((t) => t.health !== 'unknown')
        ? new Map(targets.map((t) => [t.job, t]))
        : undefined;
    }, 20_000);
    expect(byJob.get('wrong-password')?.health).toBe('down');
    expect(byJob.get('wrong-password')?.lastError).toMatch(/401/);
    expect(byJob.get('no-client-cert')?.health).toBe('down');
    expect(byJob.get('no-client-cert')?.lastError).not.toBe('');
    expect((await prometheus.query('up{job!="cityair"}')).map((s) => s.value)).toEqual([0, 0]);
  });
});
