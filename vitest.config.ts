import { defineConfig } from 'vitest/config';

/**
 * Every test of the repo. Levels are in the file names (STYLE.md 5): *.unit.spec.ts (pure),
 * *.int.spec.ts (real PostgreSQL/Redis), *.e2e.spec.ts (headless Chromium against the real app).
 * Each test file gets its own database cloned from a migrated template and its own BullMQ prefix,
 * so files run in parallel without sharing state.
 */
export default defineConfig({
  test: {
    include: ['services/**/*.spec.ts', 'infra/src/**/*.spec.ts', 'e2e/**/*.spec.ts'],
    globalSetup: ['services/test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    maxWorkers: 3,
  },
});
