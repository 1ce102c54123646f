import { defineConfig } from 'vitest/config';

/**
 * Every test of the repo. Levels are in the file names (STYLE.md 5): *.unit.spec.ts (pure),
 * *.int.spec.ts (real PostgreSQL/Redis), *.e2e.spec.ts (headless Chromium against the real app).
 * Each test file gets its own database cloned from a migrated template and its own BullMQ prefix,
 * so files run in parallel without sharing state.
 */
export default defineConfig({
  test: {
    globalSetup: ['services/test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    maxWorkers: 3,
    // expect.poll waits on a condition; its default of 1 s is shorter than a busy machine needs to render a page.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      // Integration tests that race commands against rebuilds or run a whole compensation scenario take ~30 s on a busy machine.
      { extends: true, test: { name: 'services', include: ['services/**/*.spec.ts', 'infra/src/**/*.spec.ts'], testTimeout: 60_000 } },
      // A browser walk through several screens is many page loads; on a loaded 2-core machine 30 s is too little.
      { extends: true, test: { name: 'browser', include: ['e2e/**/*.spec.ts'], testTimeout: 120_000 } },
    ],
  },
});
