// A seeded generator of numbers in [0, 1), so a property test draws the same values on every run and a failure
// can be replayed.
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 0x1_0000_0000;
  };
}
