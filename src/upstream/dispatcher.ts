// How requests reach CityAir: directly or through the proxy named by HTTPS_PROXY / HTTP_PROXY (NO_PROXY
// exempts hosts), trusting Node's CA bundle plus an optional private CA. undici ignores these variables unless
// an EnvHttpProxyAgent is installed, which is why this module exists.
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { ConfigError } from '../config/config.js';
import { readSmallFile, SmallFileError } from '../config/small-file.js';
import { tunnelPool } from './tunnel.js';
import { Agent, EnvHttpProxyAgent } from './undici-parts.js';

export interface DispatcherSettings {
  readonly caFile: string | undefined;
  readonly insecureSkipVerify: boolean;
}

export interface UpstreamDispatcher {
  readonly dispatcher: Dispatcher;
  /** For the start-up log: proxy URLs without credentials, NO_PROXY as given; undefined when direct. */
  readonly proxy: { readonly https?: string; readonly http?: string; readonly noProxy?: string } | undefined;
  readonly extraCaCertificates: number;
}

const KEEP_ALIVE = { keepAliveTimeout: 60_000, connections: 2 } as const;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

/**
 * The dispatcher for the API's requests, with a pool of `connections` sockets: the readings client gets one as
 * wide as its concurrency, so that a round of reads never queues the station list. With a log, says which route
 * it takes. Throws ConfigError (exit 2) for an unreadable CA file or a malformed proxy variable.
 */
export function createDispatcher(
  settings: DispatcherSettings,
  env: NodeJS.ProcessEnv,
  options: { readonly connections?: number; readonly log?: Logger } = {},
): UpstreamDispatcher {
  const route = routeFor(settings, env, options.connections ?? KEEP_ALIVE.connections);
  if (route.proxy) {
    options.log?.info(
      { https_proxy: route.proxy.https, http_proxy: route.proxy.http, no_proxy: route.proxy.noProxy },
      'upstream requests go through a proxy',
    );
  }
  if (route.extraCaCertificates > 0) {
    options.log?.info(
      { certificates: route.extraCaCertificates },
      'trusting extra CA certificates from --upstream.ca-file',
    );
  }
  return route;
}

function routeFor(
  settings: DispatcherSettings,
  env: NodeJS.ProcessEnv,
  connections: number,
): UpstreamDispatcher {
  const pool = { ...KEEP_ALIVE, connections };
  const extra = settings.caFile === undefined ? [] : readCaFile(settings.caFile);
  const tls: { ca?: string[]; rejectUnauthorized: boolean } = {
    rejectUnauthorized: !settings.insecureSkipVerify,
  };
  // An explicit `ca` replaces Node's trust store instead of adding to it, so the defaults go in first.
  if (extra.length > 0) tls.ca = [...rootCertificates, ...nodeExtraCaCerts(env), ...extra];

  // Lowercase first, as curl and undici do.
  const httpsProxy = proxyUrl(env.https_proxy ?? env.HTTPS_PROXY, 'HTTPS_PROXY');
  const httpProxy = proxyUrl(env.http_proxy ?? env.HTTP_PROXY, 'HTTP_PROXY');
  const noProxy = nonEmpty(env.no_proxy ?? env.NO_PROXY);
  if (!httpsProxy && !httpProxy) {
    return {
      dispatcher: new Agent({ ...pool, connect: tls }),
      proxy: undefined,
      extraCaCertificates: extra.length,
    };
  }
  let dispatcher: Dispatcher;
  try {
    dispatcher = new EnvHttpProxyAgent({
      ...pool,
      connect: tls,
      // Through a CONNECT tunnel, the API's TLS settings are requestTls; proxyTls is for an https:// proxy, whose
      // certificate is always verified (with the extra CA, for a proxy inside the same private PKI).
      requestTls: tls,
      proxyTls: tls.ca ? { ca: tls.ca } : {},
      ...(httpsProxy ? { httpsProxy: httpsProxy.href } : {}),
      ...(httpProxy ? { httpProxy: httpProxy.href } : {}),
      noProxy: noProxy ?? '',
      factory: tunnelPool,
    });
  } catch (error) {
    // Whatever else undici finds wrong with a proxy variable is a configuration error too: one line, exit 2.
    throw new ConfigError(`invalid proxy settings (HTTPS_PROXY, HTTP_PROXY): ${(error as Error).message}`);
  }
  return {
    dispatcher,
    proxy: {
      ...(httpsProxy ? { https: withoutCredentials(httpsProxy) } : {}),
      ...(httpProxy ? { http: withoutCredentials(httpProxy) } : {}),
      ...(noProxy ? { noProxy } : {}),
    },
    extraCaCertificates: extra.length,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

function proxyUrl(value: string | undefined, name: string): URL | undefined {
  const text = nonEmpty(value);
  if (!text) return undefined;
  let url: URL;
  try {
    // "proxy:3128" without a scheme means http, as in curl and Go.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ConfigError(`invalid ${name}: not a URL such as http://proxy.example:3128`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`invalid ${name}: the proxy must be http:// or https://, not ${url.protocol}//`);
  }
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new ConfigError(`invalid ${name}: the user or password is not valid percent-encoding`);
  }
  // A proxy is a host and a port: a path, query or fragment after them means nothing (curl and Go ignore them
  // too), and undici refuses a proxy URL that has one.
  url.pathname = '/';
  url.search = '';
  url.hash = '';
  return url;
}

/** The proxy URL for logs: credentials in it are a secret too. */
function withoutCredentials(url: URL): string {
  const hidden = url.username || url.password ? '***@' : '';
  return `${url.protocol}//${hidden}${url.host}`;
}

/** Room for a whole system bundle (about 200 KiB) several times over. */
const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;

function readCaFile(file: string): string[] {
  const flag = '--upstream.ca-file (CITYAIR_CA_FILE)';
  let text: string;
  try {
    text = readSmallFile(file, MAX_CA_FILE_BYTES).toString('utf8');
  } catch (error) {
    if (!(error instanceof SmallFileError)) throw error;
    throw new ConfigError(`invalid ${flag}: cannot read ${file} (${error.message})`);
  }
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new ConfigError(`invalid ${flag}: no PEM certificate in ${file}`);
  blocks.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ConfigError(`invalid ${flag}: certificate ${i + 1} in ${file} cannot be parsed`);
    }
  });
  return blocks;
}

/** Node adds NODE_EXTRA_CA_CERTS to its default store only; keep honouring it when we pass our own list. */
function nodeExtraCaCerts(env: NodeJS.ProcessEnv): string[] {
  const file = nonEmpty(env.NODE_EXTRA_CA_CERTS);
  if (!file) return [];
  try {
    return readSmallFile(file, MAX_CA_FILE_BYTES).toString('utf8').match(PEM_CERTIFICATE) ?? [];
  } catch {
    // Node itself already warned about it at start.
    return [];
  }
}
