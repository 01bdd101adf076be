// A real Alertmanager (Debian's 0.25) on a free loopback port, and a webhook receiver for what it sends.

import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { binaryPath, freePort, makeTempDir, startDaemon, waitFor, waitUntilReady } from './daemon.js';

export function alertmanagerPath(): string | undefined {
  return binaryPath('prometheus-alertmanager', 'prometheus-alertmanager');
}

export function amtoolPath(): string | undefined {
  return binaryPath('amtool', 'prometheus-alertmanager');
}

export interface RunningAlertmanager {
  readonly url: string;
  readonly output: () => string;
  readonly stop: () => Promise<void>;
}

/** `config` is alertmanager.yml as a plain object (route, receivers, inhibit_rules). */
export async function startAlertmanager(
  config: Readonly<Record<string, unknown>>,
): Promise<RunningAlertmanager> {
  const binary = alertmanagerPath();
  if (!binary)
    throw new Error('prometheus-alertmanager is not installed; check alertmanagerPath() first and skip');
  const dir = await makeTempDir('cityair-alertmanager-');
  await writeFile(join(dir, 'alertmanager.yml'), stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const daemon = startDaemon(
    binary,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // Empty turns gossip off; otherwise it binds *:9094 and waits for the cluster to settle.
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    dir,
  );
  await waitUntilReady('Alertmanager', url, daemon);
  return { url, output: daemon.output, stop: daemon.stop };
}

const webhookAlert = z.object({
  status: z.enum(['firing', 'resolved']),
  labels: z.record(z.string(), z.string()),
  annotations: z.record(z.string(), z.string()),
  startsAt: z.string(),
});
const webhookPayload = z.object({
  version: z.string(),
  status: z.enum(['firing', 'resolved']),
  receiver: z.string(),
  groupLabels: z.record(z.string(), z.string()),
  alerts: z.array(webhookAlert),
});

export type WebhookPayload = z.infer<typeof webhookPayload>;
/** One alert of a notification, with the receiver (route) that notification went to. */
export type WebhookAlert = z.infer<typeof webhookAlert> & { readonly receiver: string };

export interface WebhookReceiver {
  readonly url: string;
  readonly payloads: () => WebhookPayload[];
  /** Every alert received so far, in order, flattened out of their notifications. */
  readonly alerts: () => WebhookAlert[];
  readonly waitForAlert: (
    predicate: (a: WebhookAlert) => boolean,
    timeoutMs?: number,
  ) => Promise<WebhookAlert>;
  readonly close: () => Promise<void>;
}

/** What a team's paging endpoint would be: an HTTP server Alertmanager posts JSON notifications to. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: WebhookPayload[] = [];
  const rejected: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const parsed = webhookPayload.safeParse(safeJson(body));
      if (parsed.success) received.push(parsed.data);
      else rejected.push(body);
      res.writeHead(parsed.success ? 200 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const alerts = (): WebhookAlert[] =>
    received.flatMap((p) => p.alerts.map((a) => ({ ...a, receiver: p.receiver })));
  return {
    url: `http://127.0.0.1:${port}/alerts`,
    payloads: () => [...received],
    alerts,
    waitForAlert: (predicate, timeoutMs = 30_000) =>
      waitFor(
        'webhook alert',
        async () => {
          if (rejected.length > 0) throw new Error(`malformed notification: ${rejected[0]}`);
          return alerts().find(predicate);
        },
        timeoutMs,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
