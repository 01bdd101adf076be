// One simulator for a test file and exporters started against it; everything is reset after each test, so tests
// stay independent without paying for a new simulator each.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { demoStations } from '../../src/demo/stations.js';
import { type ExporterProcess, startExporterProcess } from './exporter-process.js';
import { type Simulator, startSimulator } from './simulator.js';

export interface UpstreamFixture {
  /** The simulator of this file (valid inside tests and hooks). */
  readonly sim: () => Simulator;
  /** Starts the exporter against the simulator with these flags; it is stopped after the test. */
  readonly exporter: (...args: string[]) => Promise<ExporterProcess>;
}

export function useUpstreamFixture(apiKey: string): UpstreamFixture {
  let sim: Simulator | undefined;
  const running: ExporterProcess[] = [];
  const current = (): Simulator => {
    if (!sim) throw new Error('the simulator starts in beforeAll');
    return sim;
  };
  beforeAll(async () => {
    sim = await startSimulator({ posts: demoStations(), apiKey });
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    current().setFault({ kind: 'none' });
    current().setPosts(demoStations());
    current().resetCount();
    current().resetReadingsLog();
  });
  afterAll(async () => sim?.close());
  return {
    sim: current,
    exporter: async (...args) => {
      const p = await startExporterProcess({
        args: [`--upstream.url=${current().baseUrl}`, ...args],
        env: { CITYAIR_API_KEY: apiKey },
      });
      running.push(p);
      return p;
    },
  };
}
