import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiServer = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    // The router plugin must run before react() so that it can split route files first.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, semicolons: true }),
    react(),
  ],
  server: {
    // Vite matches proxy keys as URL prefixes: '/s/' (not '/s') keeps '/src/...' served by Vite.
    proxy: {
      '/api': apiServer,
      '/s/': apiServer,
      '/healthz': apiServer,
      '/readyz': apiServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/web-size.mjs reads it to add up what the landing page loads.
    manifest: true,
    rollupOptions: {
      output: {
        // Zod compiles faster object parsers with `new Function` when it may, and probes for it as each
        // schema is made: the pages' policy refuses eval and reports every probe as a violation. Its
        // setting must be in place before the chunk holding zod runs, hence a banner on that chunk.
        banner: (chunk) =>
          chunk.moduleIds.some((id) => /[\\/]node_modules[\\/]zod[\\/]/.test(id))
            ? 'globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };'
            : '',
      },
    },
  },
});
