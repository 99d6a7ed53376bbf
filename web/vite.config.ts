import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const apiServer = 'http://127.0.0.1:3000';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes a `.br` and a `.gz` copy beside each asset the server serves (dist/assets), compressed once at
 * the best levels: the server sends the one the browser accepts and never compresses per request. A copy
 * that would not be smaller than the file (a tiny chunk) is not written; the file itself is served then.
 * node:zlib has both algorithms, so no plugin is needed for a dozen lines.
 */
function precompressAssets(): Plugin {
  return {
    name: 'sniplink:precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((file) => /^assets\/.+\.(js|css|svg|json)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          const copies = [
            ['.br', await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })],
            ['.gz', await gzipped(content, { level: 9 })],
          ] as const;
          for (const [extension, compressed] of copies) {
            if (compressed.length < content.length) await writeFile(path + extension, compressed);
          }
        }),
      );
    },
  };
}

const clientBuild: UserConfig = {
  plugins: [
    // The router plugin must run before react() so that it can split route files first.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, semicolons: true }),
    react(),
    precompressAssets(),
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
    // The app's first chunk is about 515 kB before compression (React, the router, Mantine's core, zod):
    // scripts/web-size.mjs budgets what the landing page loads as sent, compressed.
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      treeshake: {
        // @sniplink/contracts only declares schemas and constants, yet its package claims no freedom from
        // side effects: the bundler would keep every module its index re-exports (events, admin, billing)
        // in whatever chunk imports one name from it, the landing page's too.
        moduleSideEffects: (id) => (/[\\/]contracts[\\/]src[\\/]/.test(id) ? false : undefined),
      },
      output: {
        codeSplitting: {
          // Everything the app's entry imports statically goes in one chunk. Left alone, the bundler cuts
          // it into a few dozen by which later pages share each module, and the first screen pays a
          // request and a compression dictionary for each (about 10 kB more, gzipped).
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
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
};

/**
 * The server's copy of the app (`vite build --ssr src/entry-server.tsx`), which the API server loads to
 * render the public pages: web/dist/server/entry-server.js and its chunks, every library bundled in,
 * since the server's install has none of the web app's. Routes are split as in the browser, so that the
 * server loads only the public pages' code (about 0.4 MB first, instead of 2.7 MB for every page: the
 * first render after a start takes a third of the time, and the process keeps 20 MB less).
 * React's production build, as in the browser.
 */
const serverBuild: UserConfig = {
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true, semicolons: true }), react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true, target: 'node' },
  build: {
    outDir: 'dist/server',
    emptyOutDir: true,
    rollupOptions: {
      treeshake: clientBuild.build?.rollupOptions?.treeshake,
      output: { entryFileNames: 'entry-server.js' },
    },
  },
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverBuild : clientBuild));
