// The toolkit's rate_limit: one token every `intervalMs`, at most `burst` saved up, shared by all clients.
export interface TokenBucket {
  /** Takes a token if one is there. */
  readonly take: () => boolean;
}

export function createTokenBucket(
  intervalMs: number,
  burst: number,
  now: () => number = Date.now,
): TokenBucket {
  let tokens = burst;
  let last = now();
  return {
    take: () => {
      const t = now();
      tokens = Math.min(burst, tokens + (t - last) / intervalMs);
      last = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
