// The simulated history's rows are dated as CityAir dates them; the shorter way of writing those dates must give
// exactly the text toISOString gives, for any time the simulator may be asked about.
import { describe, expect, it } from 'vitest';
import { isoSeconds } from '../../src/demo/readings.js';

const viaDate = (t: number): string => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('row dates', () => {
  it('are toISOString without milliseconds, for days in turn, any time of day, and any year', () => {
    let seed = 3;
    const next = (): number => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed / 0x1_0000_0000;
    };
    const times: number[] = [];
    // A month of 5-minute rows, as a backfill asks for them, then times anywhere, with and without milliseconds.
    for (let t = Date.UTC(2026, 9, 1); t < Date.UTC(2026, 10, 1); t += 300_000) times.push(t);
    for (let i = 0; i < 20_000; i++) {
      const t = Math.floor((next() - 0.5) * 2 * 8.64e15);
      times.push(t, t - (t % 1000), Math.floor(next() * 4e12));
    }
    times.push(
      0,
      -1,
      -1000,
      253_402_300_799_000,
      253_402_300_800_000,
      -62_167_219_200_000,
      -62_167_219_200_001,
    );
    const differ = times.filter((t) => isoSeconds(t) !== viaDate(t));
    expect(differ.slice(0, 5).map((t) => [t, isoSeconds(t), viaDate(t)])).toEqual([]);
  });
});
