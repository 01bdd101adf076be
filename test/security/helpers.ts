// Clients for the security tests: HTTPS with a chosen CA and optional client certificate, and a raw TLS
// handshake that reports which certificate the server presented.
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import bcrypt from 'bcryptjs';
import { Agent, request } from 'undici';

export interface TlsClient {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

export const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** bcrypt at a low cost: the tests measure behaviour, not bcrypt. */
export const hashOf = (password: string, cost = 4): string => bcrypt.hashSync(password, cost);

export async function httpsGet(
  url: string,
  client: TlsClient,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const agent = new Agent({ connect: { ...client }, pipelining: 0 });
  try {
    const res = await request(url, { dispatcher: agent, headers, signal: AbortSignal.timeout(5000) });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  } finally {
    await agent.destroy();
  }
}

/** SHA-256 fingerprint of the certificate the server presents on a fresh connection. */
export function servedFingerprint(url: string, ca: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ca, servername: 'localhost' }, () => {
      const cert = socket.getPeerX509Certificate();
      socket.destroy();
      if (cert) resolve(cert.fingerprint256);
      else reject(new Error('no certificate presented'));
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('TLS handshake timed out')));
  });
}

export function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}
