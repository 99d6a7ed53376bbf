import { defineConfig } from 'vitest/config';

/** What every run of the tests shares (this file's projects, and vitest.database-servers.config.ts). */
export const servers = {
  // One PostgreSQL server per project of the run (embedded, DATABASE_URL or a container); each test file
  // makes its own database. Kafka and KurrentDB: given, in a container, or none (test/support/servers.ts).
  globalSetup: ['./test/global-setup.ts'],
  setupFiles: ['./test/support/run-servers.ts'],
};

/**
 * The browser tests: each drives Chromium against an app process of its own. Two at a time, after the
 * in-process files: one alone leaves the machine idle while its page waits on the app or a poll, and
 * two take about two thirds of the time one after the other do.
 */
const BROWSER = ['test/e2e/**/*.test.ts'];

/**
 * The files that start processes of the app (app and redirect processes, the CLI, a crash and restart,
 * the embedded server itself), each of which keeps both cores busy on its own, and those that tell apart
 * a wait of a few tens of milliseconds (the click buffer's linger, a slow parse) from none: they run one
 * at a time, last.
 */
const HEAVY = [
  'test/upgrade.test.ts',
  'services/standalone/src/**/*.test.ts',
  'services/platform/src/embedded/*.test.ts',
  'services/redirect/src/click-spill.test.ts',
  'services/redirect/src/click-buffer.test.ts',
  'services/redirect/src/click-description.test.ts',
  'services/api/src/webhooks/webhooks-restart.test.ts',
  'projections/src/runner-crash.test.ts',
  'projections/src/analytics/consumer-crash.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // A worker imports the app's modules once for all its files, not once per file: importing them took
    // two to five seconds a file, a third of the in-process files' time. Each file still makes its own
    // database, app and browser, and stops them in its afterAll.
    isolate: false,
    // A browser page's data arrives after its first paint, later still on a busy machine: a second (the
    // default) is too short a wait for what a user would see a moment later.
    expect: { poll: { timeout: 10_000 } },
    // Two files at a time, then the browser tests two at a time, then the heavy ones one at a time:
    // vitest's default on 2 cores is one file at a time, which leaves a core idle while an in-process
    // test waits on PostgreSQL.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          ...servers,
          name: 'in-process',
          include: ['{contracts,services,projections,web,test}/**/*.test.{ts,tsx}'],
          exclude: [...BROWSER, ...HEAVY],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          ...servers,
          name: 'browser',
          include: BROWSER,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          ...servers,
          name: 'heavy',
          include: HEAVY,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
