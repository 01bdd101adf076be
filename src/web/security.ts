// --web.config.file at run time: the HTTPS options the server starts with, the request hook that applies basic
// auth, the rate limit and the configured headers, and the reloader that keeps them in step with the files on
// disk. A change is applied only when the whole set of files is valid; otherwise the running configuration stays
// and the problem is logged once.
import type { Server as NetServer } from 'node:net';
import { type TLSSocket, type TlsOptions, Server as TlsServer } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { type BasicAuth, createBasicAuth, createSerializer } from './basic-auth.js';
import { acceptsPeer, type PeerPolicy, policyOf, verifyMode } from './client-cert.js';
import { type FileWatch, watchFiles } from './file-watch.js';
import { type LoadedWebConfig, loadWebConfig, secureContextOptions } from './loader.js';
import { createTokenBucket, type TokenBucket } from './rate-limit.js';

/** Liveness probes (kubelet, systemd, load balancers) rarely carry credentials, and "ok" reveals nothing. */
const UNAUTHENTICATED_PATHS: ReadonlySet<string> = new Set(['/healthz']);
const REALM_HEADER = 'Basic realm="cityair-exporter", charset="UTF-8"';
const DEFAULT_POLL_MS = 5000;

export interface WebSecurity {
  /** Options for node:https (via Fastify's `https`), or undefined for plain HTTP. */
  readonly httpsOptions: TlsOptions | undefined;
  readonly onRequest: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  /** Starts enforcing client-certificate policy on the listening server and watching the files. */
  readonly attach: (server: NetServer) => void;
  readonly close: () => void;
}

interface Active {
  readonly loaded: LoadedWebConfig;
  readonly fingerprint: string;
  readonly auth: BasicAuth | undefined;
  readonly bucket: TokenBucket | undefined;
}

/** Loads the file or throws WebConfigError, a ConfigError (exit status 2). */
export function createWebSecurity(
  path: string,
  log: Logger,
  options: { readonly pollIntervalMs?: number; readonly watch?: boolean } = {},
): WebSecurity {
  const serializer = createSerializer();
  const activate = (loaded: LoadedWebConfig, fingerprint: string, previous?: Active): Active => {
    const limit = loaded.config.rateLimit;
    const before = previous?.loaded.config.rateLimit;
    // An unchanged limit keeps its bucket, so that a reload is no way to refill it.
    const sameLimit =
      limit && before && limit.intervalMs === before.intervalMs && limit.burst === before.burst;
    return {
      loaded,
      fingerprint,
      auth: loaded.config.users.size > 0 ? createBasicAuth(loaded.config.users, serializer) : undefined,
      bucket: sameLimit
        ? previous?.bucket
        : limit
          ? createTokenBucket(limit.intervalMs, limit.burst)
          : undefined,
    };
  };

  const first = loadWebConfig(path);
  if (!first.ok) throw first.error;
  let active = activate(first.loaded, first.fingerprint);
  let lastFailure: string | undefined;
  const servesTls = first.loaded.tls !== undefined;
  log.info(describe(active.loaded, path), 'web configuration loaded');
  warnIfExpired(active.loaded, path, log);

  let tlsServer: TlsServer | undefined;
  // The policy in force on the server: a reload that drops TLS from the file leaves it (and HTTPS) as it was.
  let peerPolicy: PeerPolicy = policyOf(first.loaded.tls?.settings);
  let files: FileWatch | undefined;

  // Runs from timers: whatever goes wrong is logged here, never allowed to become an uncaught exception.
  const reload = (): void => {
    try {
      reloadNow();
    } catch (err) {
      log.error({ err, file: path }, 'web configuration reload failed: keeping the previous one');
    }
  };

  const reloadNow = (): void => {
    const result = loadWebConfig(path);
    if (result.fingerprint === active.fingerprint) return;
    if (!result.ok) {
      if (result.fingerprint !== lastFailure) {
        lastFailure = result.fingerprint;
        log.error(
          { file: path, key: result.error.key, problem: result.error.detail },
          'web configuration not reloaded: keeping the previous one',
        );
      }
      return;
    }
    const { loaded } = result;
    if ((loaded.tls !== undefined) !== servesTls) {
      log.error(
        { file: path },
        servesTls
          ? 'web configuration reload: TLS cannot be turned off without a restart; still serving HTTPS with the previous certificate'
          : 'web configuration reload: TLS cannot be turned on without a restart; still serving plain HTTP',
      );
    }
    if (tlsServer && loaded.tls) {
      tlsServer.setSecureContext(secureContextOptions(loaded.tls));
      // Read by node:tls for each new connection (tlsConnectionListener), so this takes effect at once.
      Object.assign(tlsServer, verifyMode(loaded.tls.settings.clientAuth));
      peerPolicy = policyOf(loaded.tls.settings);
    }
    active = activate(loaded, result.fingerprint, active);
    lastFailure = undefined;
    log.info(describe(loaded, path), 'web configuration reloaded');
    warnIfExpired(loaded, path, log);
    files?.follow(loaded.files);
  };

  const checkClientCertificate = (socket: TLSSocket): void => {
    if (acceptsPeer(peerPolicy, socket)) return;
    log.debug(
      { remote: socket.remoteAddress, reason: socket.authorizationError },
      'client certificate refused',
    );
    socket.destroy();
  };

  return {
    httpsOptions: first.loaded.tls
      ? { ...secureContextOptions(first.loaded.tls), ...verifyMode(first.loaded.tls.settings.clientAuth) }
      : undefined,
    onRequest: async (req, reply) => {
      const current = active;
      for (const [name, value] of current.loaded.config.headers) reply.header(name, value);
      if (UNAUTHENTICATED_PATHS.has(req.url.split('?')[0] ?? '')) return undefined;
      // Before auth, so that a flood is turned away without costing a bcrypt comparison each.
      if (current.bucket && !current.bucket.take()) return tooManyRequests(reply);
      if (!current.auth) return undefined;
      const verdict = await current.auth.check(req.headers.authorization);
      if (verdict === 'ok') return undefined;
      if (verdict === 'busy') return tooManyRequests(reply);
      return reply
        .code(401)
        .header('www-authenticate', REALM_HEADER)
        .type('text/plain; charset=utf-8')
        .send('unauthorized\n');
    },
    attach: (server) => {
      if (server instanceof TlsServer) {
        tlsServer = server;
        server.on('secureConnection', checkClientCertificate);
      }
      files = watchFiles(reload, log, {
        pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_MS,
        watch: options.watch ?? true,
      });
      files.follow(active.loaded.files);
    },
    close: () => files?.close(),
  };
}

function tooManyRequests(reply: FastifyReply): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', '1')
    .type('text/plain; charset=utf-8')
    .send('too many requests\n');
}

/** Clients refuse an expired certificate; the log should say why scrapes started failing. */
function warnIfExpired(loaded: LoadedWebConfig, file: string, log: Logger): void {
  const notAfter = loaded.tls ? Date.parse(loaded.tls.notAfter) : Number.NaN;
  if (notAfter < Date.now()) {
    log.warn({ file, cert_not_after: loaded.tls?.notAfter }, 'the TLS server certificate has expired');
  }
}

function describe(loaded: LoadedWebConfig, file: string): Record<string, unknown> {
  const { config, tls } = loaded;
  return {
    file,
    tls: tls !== undefined,
    ...(tls
      ? {
          client_auth: tls.settings.clientAuth,
          min_version: tls.settings.minVersion,
          cert_not_after: tls.notAfter,
        }
      : {}),
    basic_auth_users: config.users.size,
    ...(config.rateLimit ? { rate_limit: config.rateLimit } : {}),
    headers: [...config.headers.keys()],
  };
}
