// The one cache of derived data in the exporter: a value computed from a few inputs, kept while the inputs are
// the same objects and the value's own deadline has not passed. Collectors replace their data with new objects
// when it changes, so identity is enough to know that nothing changed.

export interface Expiring<V> {
  readonly value: V;
  /** The value stays right up to this Unix time (ms); Infinity when only new inputs change it. */
  readonly untilMs: number;
}

export function memoUntil<const K extends readonly unknown[], V>(
  compute: (nowMs: number, ...inputs: K) => Expiring<V>,
): (nowMs: number, ...inputs: K) => V {
  let last: { readonly inputs: K; readonly value: V; readonly untilMs: number } | undefined;
  return (nowMs, ...inputs) => {
    if (last && nowMs <= last.untilMs && inputs.every((input, i) => input === last?.inputs[i]))
      return last.value;
    const { value, untilMs } = compute(nowMs, ...inputs);
    last = { inputs, value, untilMs };
    return value;
  };
}

/** For values that only new inputs change. */
export const forever = <V>(value: V): Expiring<V> => ({ value, untilMs: Number.POSITIVE_INFINITY });
