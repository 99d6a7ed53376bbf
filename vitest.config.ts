import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contracts,services,projections,web,test}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // One PostgreSQL server per run (embedded, or DATABASE_URL); each test file makes its own database.
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
