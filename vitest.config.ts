import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Most spawned tests wait on real servers (Prometheus' first scrape, Alertmanager's group wait), not on the
    // CPU: three files at a time on two cores cut the wall time without starving any of them.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start real processes and servers; a retry would hide a real race.
    retry: 0,
  },
});
