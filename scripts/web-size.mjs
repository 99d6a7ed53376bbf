// Prints how much gzipped JavaScript a visitor's browser loads for the landing page (`/`), and exits 1
// when it is over the limit (200 kB). Counted: every script index.html loads or preloads, the
// entry's static imports, and every chunk of the index route with its static imports. Not counted: chunks
// loaded only on a later action (the dashboard, other pages, the demo's result, toasts, menus).
// `npm run screenshots` cross-checks the figure against what Chromium really fetches. Builds the web app
// first when it is stale.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_KB = 200;
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'web', 'dist');
execFileSync(process.execPath, [join(root, 'scripts', 'ensure-web-build.mjs')], { stdio: 'inherit' });
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');

/** A chunk's key and every chunk it imports statically, each once. */
function withStaticImports(key, seen) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) withStaticImports(imported, seen);
}

const keys = new Set();
withStaticImports('index.html', keys);
// The index route's chunks (the router plugin splits its component off as `?tsr-split=component`).
const indexRouteKeys = Object.keys(manifest).filter((key) => key.startsWith('src/routes/index.tsx'));
if (indexRouteKeys.length === 0) throw new Error('no chunk of src/routes/index.tsx in the Vite manifest');
for (const key of indexRouteKeys) withStaticImports(key, keys);

const files = new Set([...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js')));
// Whatever index.html itself names, whether or not the manifest says so.
for (const [, file] of indexHtml.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/([^"]+\.js)"/g)) {
  files.add(file);
}

const gzipped = (file) => gzipSync(readFileSync(join(dist, file))).length;
const sizes = [...files].map((file) => ({ file, gzip: gzipped(file) })).sort((a, b) => b.gzip - a.gzip);
for (const { file, gzip } of sizes) console.log(`${(gzip / 1000).toFixed(1).padStart(8)} kB  ${file}`);
const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
const css = [...indexHtml.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"/g)].reduce(
  (sum, [, file]) => sum + gzipped(file),
  0,
);
console.log(
  `landing page JavaScript: ${(total / 1000).toFixed(1)} kB (${(total / 1024).toFixed(1)} KiB) gzipped in ${sizes.length} files; limit ${LIMIT_KB} kB`,
);
console.log(`(and ${(css / 1000).toFixed(1)} kB of gzipped CSS, not counted)`);
if (total > LIMIT_KB * 1000) {
  console.error(`over the limit by ${((total - LIMIT_KB * 1000) / 1000).toFixed(1)} kB`);
  process.exit(1);
}
