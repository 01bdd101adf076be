// HTTP basic authentication against the bcrypt hashes of the web configuration file.
//
// Timing: every failed attempt costs one bcrypt comparison, whether the user exists or not (unknown users are
// compared against a real user's hash and then refused), so response time does not reveal user names.
// Cost: bcrypt at cost 10 takes 70–200 ms of CPU in pure JS, too much for every scrape, so successful checks are
// remembered for a while. The cache key is a SHA-256 of user, stored hash and offered password: only the exact
// right password can hit it, a reload that changes a hash invalidates it, and no password is kept in memory.
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';

const CACHE_TTL_MS = 5 * 60_000;
const CACHE_MAX = 256;
/** Comparisons waiting their turn; beyond this a flood of guesses gets refused without spending CPU. */
const MAX_PENDING = 64;

export type AuthVerdict = 'ok' | 'denied' | 'busy';

export interface BasicAuth {
  readonly check: (authorization: string | undefined) => Promise<AuthVerdict>;
}

/** Runs bcrypt comparisons one at a time, as the Go toolkit does: a burst of guesses cannot take every core. */
export interface Serializer {
  readonly run: <T>(task: () => Promise<T>) => Promise<T> | undefined;
}

export function createSerializer(maxPending = MAX_PENDING): Serializer {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;
  return {
    run: <T>(task: () => Promise<T>): Promise<T> | undefined => {
      if (pending >= maxPending) return undefined;
      pending++;
      const result = tail.then(task).finally(() => {
        pending--;
      });
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

export function createBasicAuth(users: ReadonlyMap<string, string>, serializer: Serializer): BasicAuth {
  const decoy = costliest(users);
  const cache = new Map<string, number>();

  const check = async (authorization: string | undefined): Promise<AuthVerdict> => {
    const credentials = parseBasic(authorization);
    if (!credentials) return 'denied';
    const stored = users.get(credentials.user);
    const hash = stored ?? decoy;
    const key = createHash('sha256')
      .update(credentials.user)
      .update('\0')
      .update(hash)
      .update('\0')
      .update(credentials.password)
      .digest('hex');
    const now = Date.now();
    const expires = cache.get(key);
    if (stored !== undefined && expires !== undefined && expires > now) return 'ok';

    const compared = serializer.run(() => bcrypt.compare(credentials.password, hash));
    if (!compared) return 'busy';
    const matches = await compared;
    if (stored === undefined || !matches) return 'denied';
    if (cache.size >= CACHE_MAX) {
      for (const [k, t] of cache) if (t <= now) cache.delete(k);
      if (cache.size >= CACHE_MAX) cache.clear();
    }
    cache.set(key, now + CACHE_TTL_MS);
    return 'ok';
  };
  return { check };
}

/** The hash with the highest cost: comparing against it takes as long as the slowest real user. */
function costliest(users: ReadonlyMap<string, string>): string {
  let best = '';
  let bestCost = -1;
  for (const hash of users.values()) {
    const cost = Number(hash.slice(4, 6));
    if (cost > bestCost) {
      best = hash;
      bestCost = cost;
    }
  }
  return best;
}

/** RFC 7617: "Basic" (any case), base64 of user:password; the first colon ends the user name. */
export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^basic[ \t]+([A-Za-z0-9+/]+=*)[ \t]*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
