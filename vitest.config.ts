import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contracts,services,projections,web,test}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // One PostgreSQL server per run (embedded, DATABASE_URL or a container); each test file makes its own
    // database. Kafka and KurrentDB: given, in a container, or none (test/support/servers.ts).
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/support/run-servers.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
