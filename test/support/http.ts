// Small HTTP helpers for tests: fetch with a timeout and the whole body as text.
export async function get(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Value of one sample in exposition text, e.g. sample(text, 'cityair_up'); undefined when absent. */
export function sample(text: string, seriesPrefix: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${seriesPrefix} `)) return Number(line.slice(seriesPrefix.length + 1));
  }
  return undefined;
}

export function lines(text: string, metricName: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${metricName}{`) || l.startsWith(`${metricName} `));
}

/** Polls until check() returns a value other than undefined, or fails after timeoutMs. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  stepMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
