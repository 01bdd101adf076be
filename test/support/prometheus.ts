// A real Prometheus (Debian's 2.42) on a free loopback port, with a config templated into a temp dir.
// Reusable: pass any scrape configs (TLS included: put certificates in `files` and refer to them by path).
import { copyFile, cp, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import {
  binaryPath,
  type Daemon,
  freePort,
  makeTempDir,
  startDaemon,
  waitFor,
  waitUntilReady,
} from './daemon.js';

export function prometheusPath(): string | undefined {
  return binaryPath('prometheus', 'prometheus');
}

/** A rule file to load: a path on disk, copied as is, or content written under the given file name. */
export type RuleFile = string | { readonly name: string; readonly content: string };

export interface PrometheusOptions {
  /** Prometheus scrape_configs entries as plain objects (job_name, static_configs, scheme, tls_config...). */
  readonly scrapeConfigs: readonly Readonly<Record<string, unknown>>[];
  readonly ruleFiles?: readonly RuleFile[];
  /** e.g. http://127.0.0.1:9093; alerts are sent there when set. */
  readonly alertmanagerUrl?: string;
  /** Default 1s, so a test sees data in seconds; the scrape timeout defaults to the same. */
  readonly scrapeInterval?: string;
  readonly scrapeTimeout?: string;
  readonly evaluationInterval?: string;
  /** Extra files written next to prometheus.yml before start (certificates, keys); name -> content. */
  readonly files?: Readonly<Record<string, string>>;
  /** TSDB blocks (e.g. from promtool) copied into the storage directory before start. */
  readonly blocksFrom?: string;
  /** Extra flags, e.g. --web.enable-remote-write-receiver. */
  readonly extraArgs?: readonly string[];
  /** Merged into prometheus.yml at the top level, e.g. { storage: { tsdb: { out_of_order_time_window: '30d' } } }. */
  readonly extraConfig?: Readonly<Record<string, unknown>>;
}

export interface Sample {
  readonly metric: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Target {
  readonly job: string;
  readonly instance: string;
  readonly health: string;
  readonly lastError: string;
}

export interface PrometheusAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly state: string;
}

export interface RunningPrometheus {
  readonly url: string;
  /** Directory holding prometheus.yml, the rule files and `files`. */
  readonly configDir: string;
  /** Instant query; a scalar result comes back as one sample without labels. Rejects on a PromQL error. */
  readonly query: (expr: string, timeSeconds?: number) => Promise<Sample[]>;
  readonly targets: () => Promise<Target[]>;
  /** Waits until `count` targets (default: one per scrape config) are healthy; returns the healthy ones. */
  readonly waitForTargetsUp: (options?: {
    readonly count?: number;
    readonly timeoutMs?: number;
  }) => Promise<Target[]>;
  /** Polls `expr` until the result satisfies `accept`; returns that result. */
  readonly waitForQuery: (
    expr: string,
    accept: (samples: Sample[]) => boolean,
    timeoutMs?: number,
  ) => Promise<Sample[]>;
  readonly alerts: () => Promise<PrometheusAlert[]>;
  readonly output: () => string;
  readonly stop: () => Promise<void>;
}

const labels = z.record(z.string(), z.string());
const apiError = z.object({ status: z.literal('error'), errorType: z.string(), error: z.string() });
const queryResponse = z.union([
  z.object({
    status: z.literal('success'),
    data: z.union([
      z.object({
        resultType: z.literal('vector'),
        result: z.array(z.object({ metric: labels, value: z.tuple([z.number(), z.string()]) })),
      }),
      z.object({ resultType: z.literal('scalar'), result: z.tuple([z.number(), z.string()]) }),
    ]),
  }),
  apiError,
]);
const targetsResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    activeTargets: z.array(z.object({ labels, health: z.string(), lastError: z.string() })),
  }),
});
const alertsResponse = z.object({
  status: z.literal('success'),
  data: z.object({ alerts: z.array(z.object({ labels, annotations: labels, state: z.string() })) }),
});

export async function startPrometheus(options: PrometheusOptions): Promise<RunningPrometheus> {
  const binary = prometheusPath();
  if (!binary) throw new Error('prometheus is not installed; check prometheusPath() first and skip');
  const dir = await makeTempDir('cityair-prometheus-');
  const ruleNames = await writeRuleFiles(dir, options.ruleFiles ?? []);
  for (const [name, content] of Object.entries(options.files ?? {}))
    await writeFile(join(dir, name), content);
  await writeFile(
    join(dir, 'prometheus.yml'),
    stringify({ ...configFor(options, ruleNames), ...options.extraConfig }),
  );
  if (options.blocksFrom) await cp(options.blocksFrom, join(dir, 'data'), { recursive: true });

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const daemon = startDaemon(
    binary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
      ...(options.extraArgs ?? []),
    ],
    dir,
  );
  await waitUntilReady('Prometheus', url, daemon);
  return running(url, dir, daemon, options.scrapeConfigs.length);
}

async function writeRuleFiles(dir: string, files: readonly RuleFile[]): Promise<string[]> {
  const names: string[] = [];
  for (const file of files) {
    if (typeof file === 'string') {
      names.push(basename(file));
      await copyFile(file, join(dir, basename(file)));
    } else {
      names.push(file.name);
      await writeFile(join(dir, file.name), file.content);
    }
  }
  return names;
}

function configFor(options: PrometheusOptions, ruleNames: readonly string[]): Record<string, unknown> {
  const interval = options.scrapeInterval ?? '1s';
  const config: Record<string, unknown> = {
    global: {
      scrape_interval: interval,
      scrape_timeout: options.scrapeTimeout ?? interval,
      evaluation_interval: options.evaluationInterval ?? '1s',
    },
    rule_files: ruleNames,
    scrape_configs: options.scrapeConfigs,
  };
  if (options.alertmanagerUrl !== undefined) {
    config.alerting = {
      alertmanagers: [{ static_configs: [{ targets: [new URL(options.alertmanagerUrl).host] }] }],
    };
  }
  return config;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return res.json();
}

function running(url: string, configDir: string, daemon: Daemon, configuredJobs: number): RunningPrometheus {
  const query = async (expr: string, timeSeconds?: number): Promise<Sample[]> => {
    const params = new URLSearchParams({ query: expr });
    if (timeSeconds !== undefined) params.set('time', String(timeSeconds));
    const body = queryResponse.parse(await getJson(`${url}/api/v1/query?${params}`));
    if (body.status === 'error') throw new Error(`${body.errorType}: ${body.error} in ${expr}`);
    if (body.data.resultType === 'scalar') return [{ metric: {}, value: Number(body.data.result[1]) }];
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };
  const targets = async (): Promise<Target[]> => {
    const body = targetsResponse.parse(await getJson(`${url}/api/v1/targets?state=active`));
    return body.data.activeTargets.map((t) => ({
      job: t.labels.job ?? '',
      instance: t.labels.instance ?? '',
      health: t.health,
      lastError: t.lastError,
    }));
  };
  return {
    url,
    configDir,
    query,
    targets,
    // The first scrape comes ~5 s after start (service discovery is throttled): poll, never sleep.
    waitForTargetsUp: ({ count, timeoutMs = 20_000 } = {}) =>
      waitFor(
        'targets up',
        async () => {
          const all = await targets();
          const up = all.filter((t) => t.health === 'up');
          return up.length >= (count ?? Math.max(1, configuredJobs)) ? up : undefined;
        },
        timeoutMs,
        daemon,
      ),
    waitForQuery: (expr, accept, timeoutMs = 20_000) =>
      waitFor(
        `query ${expr}`,
        async () => {
          const samples = await query(expr);
          return accept(samples) ? samples : undefined;
        },
        timeoutMs,
        daemon,
      ),
    alerts: async () => alertsResponse.parse(await getJson(`${url}/api/v1/alerts`)).data.alerts,
    output: daemon.output,
    stop: daemon.stop,
  };
}
