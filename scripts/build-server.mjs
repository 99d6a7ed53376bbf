// Bundles the server's entry points (our TypeScript, every workspace package inlined) into
// services/standalone/dist/*.mjs, with third-party packages left as imports from node_modules.
// Node then runs plain JavaScript: no TypeScript loader in the process. tsx registers its hooks on a
// thread of their own (a second V8 isolate) and keeps every transformed module: about 65 MB of RSS at
// rest, which the redirect process cannot spare. Takes about half a second, so every start rebuilds.
// Files are written next to their final name and renamed over it: two processes starting at once
// (an app and a redirect process) never run a half-written bundle.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'services', 'standalone', 'dist');
const entries = ['main', 'redirect-main', 'click-worker'];

const result = await build({
  entryPoints: entries.map((name) => join(root, 'services', 'standalone', 'src', `${name}.ts`)),
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  write: false,
  logLevel: 'warning',
  // Some dependencies are CommonJS and call require(): give the ES module bundle one.
  banner: {
    js: "import { createRequire as sniplinkRequire } from 'node:module';\nconst require = sniplinkRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'third-party-stays-external',
      setup(bundler) {
        // Bare specifiers other than our own workspaces: resolved by Node at run time, from node_modules.
        bundler.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@sniplink/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
mkdirSync(outdir, { recursive: true });
for (const file of result.outputFiles) {
  const temporary = join(outdir, `.${basename(file.path)}.${randomBytes(4).toString('hex')}`);
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
