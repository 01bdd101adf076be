// The parts of undici the exporter runs on, loaded from their own files. undici's index loads all of undici
// (fetch, WebSocket, the caches, the mocks, HTTP/2, SOCKS): about 3 MiB of V8 heap that stays alive, which the
// old generation's slack then multiplies, for code a scrape never calls (docs/benchmarks.md). The record, the backfill
// and the report use the same parts.
//
// undici has no "exports" map, so these files are reachable; the package lock pins the version, and
// test/upstream/undici-parts.test.ts fails if one moves or changes its shape. The types are undici's own.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

function part<T>(file: string, check: (loaded: unknown) => boolean): T {
  const loaded: unknown = load(`undici/lib/${file}`);
  if (!check(loaded)) throw new Error(`undici/lib/${file} is not what this version of the exporter expects`);
  return loaded as T;
}

const isClass = (loaded: unknown): boolean => typeof loaded === 'function';

export const Agent = part<typeof Undici.Agent>('dispatcher/agent.js', isClass);
export const Client = part<typeof Undici.Client>('dispatcher/client.js', isClass);
export const Pool = part<typeof Undici.Pool>('dispatcher/pool.js', isClass);
export const EnvHttpProxyAgent = part<typeof Undici.EnvHttpProxyAgent>(
  'dispatcher/env-http-proxy-agent.js',
  isClass,
);

// What undici's index does on loading, and the parts rely on: the request API as methods of every dispatcher (its
// ProxyAgent opens a tunnel with `client.connect()`).
const Dispatcher = part<typeof Undici.Dispatcher>('dispatcher/dispatcher.js', isClass);
const api = part<Record<string, unknown>>('api/index.js', (loaded) => typeof loaded === 'object');
if (!('connect' in Dispatcher.prototype)) Object.assign(Dispatcher.prototype, api);

type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'>;

/**
 * undici's `request(url, { dispatcher })`: what the index's version does for an absolute URL, without its
 * global dispatcher (a dispatcher is always given here).
 */
export function request(
  url: string,
  options: RequestOptions & { readonly dispatcher: Undici.Dispatcher },
): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = new URL(url);
  return dispatcher.request({ ...rest, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
}
