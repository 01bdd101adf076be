// A store held in memory for the report's reader, answering the selectors selectorOf writes (a name regex and exact
// matchers) the way the query API does: the series with samples in a range, and raw samples in (at - range, at].
import type { Labels, Store, StoreSeries } from '../../src/report/store.js';

export interface MemorySeries {
  readonly labels: Labels;
  readonly samples: readonly { readonly atMs: number; readonly value: number }[];
}

function matches(selector: string, labels: Labels): boolean {
  for (const [, name, op, raw] of selector.matchAll(/([a-zA-Z_]+)(=~|=)("(?:[^"\\]|\\.)*")/g)) {
    const value = JSON.parse(raw as string) as string;
    const have = labels[name as string] ?? '';
    if (op === '=~' ? !new RegExp(`^(?:${value})$`).test(have) : have !== value) return false;
  }
  return true;
}

export function memoryStore(all: readonly MemorySeries[]): Store {
  let queries = 0;
  return {
    series: async (selector, fromMs, toMs) => {
      queries++;
      return all
        .filter(
          (s) => matches(selector, s.labels) && s.samples.some((x) => x.atMs >= fromMs && x.atMs <= toMs),
        )
        .map((s) => s.labels);
    },
    samples: async (selector, atMs, rangeMs): Promise<StoreSeries[]> => {
      queries++;
      return all
        .filter((s) => matches(selector, s.labels))
        .map((s) => ({
          labels: s.labels,
          samples: s.samples.filter((x) => x.atMs > atMs - rangeMs && x.atMs <= atMs),
        }))
        .filter((s) => s.samples.length > 0);
    },
    // Only what the record asks: last_over_time(SELECTOR[Nms]) at every step.
    range: async (expr, fromMs, toMs, stepMs): Promise<StoreSeries[]> => {
      queries++;
      const m = /^last_over_time\((\{.*\})\[(\d+)ms\]\)$/.exec(expr);
      if (!m) throw new Error(`the memory store cannot answer ${expr}`);
      const [selector, range] = [m[1] as string, Number(m[2])];
      const steps = Math.ceil(stepMs / 1000) * 1000;
      return all
        .filter((s) => matches(selector, s.labels))
        .map((s) => {
          const samples: { atMs: number; value: number }[] = [];
          for (let t = fromMs; t <= toMs; t += steps) {
            const inside = s.samples.filter((x) => x.atMs > t - range && x.atMs <= t);
            const last = inside[inside.length - 1];
            if (last) samples.push({ atMs: t, value: last.value });
          }
          return { labels: s.labels, samples };
        })
        .filter((s) => s.samples.length > 0);
    },
    queries: () => queries,
    close: async () => undefined,
  };
}
