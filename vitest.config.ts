import { defineConfig } from 'vitest/config';

// Two projects, chosen by file name (CONVENTIONS.md §10):
//  unit — `*.test.ts`, pure, no servers;
//  int  — `*.int.test.ts` / `*.e2e.test.ts`, against the real Postgres and nats-server
//         that the global setup starts (or TEST_DATABASE_URL / TEST_NATS_URL when set).
const ignore = ['**/node_modules/**', '**/.weft/**'];
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['shared/**/*.test.ts', 'services/**/*.test.ts', 'migrations/**/*.test.ts', 'load-tests/**/*.test.ts'],
          exclude: [...ignore, '**/*.int.test.ts', '**/*.e2e.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'int',
          sequence: { groupOrder: 1 },
          include: ['**/*.int.test.ts', '**/*.e2e.test.ts'],
          exclude: ignore,
          globalSetup: ['shared/testing/src/global-setup.ts'],
          pool: 'forks',
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
