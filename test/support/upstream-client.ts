// Both slices' reads over one real upstream, as app.ts builds them: the tests of the exchange talk to the simulator
// through exactly the code the exporter runs.
import type { Secret } from '../../src/config/secret.js';
import { UPSTREAM_SETTINGS } from '../../src/config/settings.js';
import { type FetchReadings, readReadings } from '../../src/readings/read.js';
import { type FetchStations, readStations } from '../../src/stations/read.js';
import { createUpstream } from '../../src/upstream/exchange.js';

export interface TestClient {
  readonly fetchStations: FetchStations;
  readonly fetchReadings: FetchReadings;
  readonly close: () => Promise<void>;
}

export function upstreamClient(options: {
  readonly baseUrl: string;
  readonly apiKey: Secret | undefined;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly userAgent: string;
  readonly connections?: number;
  /** --upstream.max-stations (default: the exporter's). */
  readonly maxStations?: number;
}): TestClient {
  const upstream = createUpstream(options);
  return {
    fetchStations: readStations(
      upstream,
      options.maxStations ?? Number(UPSTREAM_SETTINGS.maxStations.default),
    ),
    fetchReadings: readReadings(upstream),
    close: upstream.close,
  };
}
