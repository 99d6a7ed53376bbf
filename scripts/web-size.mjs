// Prints how much compressed JavaScript a visitor's browser loads for the first screen of the landing page
// (`/`), and exits 1 when it is over the limit (150 kB). The bytes counted are those the server sends: the
// brotli copy the build writes beside each asset (every current browser accepts brotli), or the file
// itself when the build wrote none; the gzip copies' total is printed beside it, for clients without
// brotli. Counted: every script index.html loads or preloads, the entry's static imports, and every chunk
// of the index route with its static imports. Not counted: chunks loaded after the first screen shows
// (the demo's form, far below it) or only on a later action (the dashboard, other pages, the demo's
// result, toasts, menus). `npm run screenshots` cross-checks the figure against what Chromium really
// fetches. Builds the web app first when it is stale.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT_KB = 150;
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

/** Bytes the server sends for a file when the browser accepts `extension`'s encoding. */
const sent = (file, extension) => {
  const compressed = join(dist, `${file}${extension}`);
  return statSync(existsSync(compressed) ? compressed : join(dist, file)).size;
};
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const sizes = [...files]
  .map((file) => ({ file, brotli: sent(file, '.br'), gzip: sent(file, '.gz') }))
  .sort((a, b) => b.brotli - a.brotli);
console.log('  brotli      gzip  file');
for (const { file, brotli, gzip } of sizes) {
  console.log(`${kB(brotli).padStart(8)}  ${kB(gzip).padStart(8)}  ${file}`);
}
const total = sizes.reduce((sum, { brotli }) => sum + brotli, 0);
const totalGzip = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
const css = [...indexHtml.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"/g)].reduce(
  (sum, [, file]) => sum + sent(file, '.br'),
  0,
);
console.log(
  `landing page JavaScript: ${kB(total)} (${(total / 1024).toFixed(1)} KiB) brotli in ${sizes.length} files, ${kB(totalGzip)} gzip; limit ${LIMIT_KB} kB brotli`,
);
console.log(`(and ${kB(css)} of CSS, brotli, not counted)`);
if (total > LIMIT_KB * 1000) {
  console.error(`over the limit by ${kB(total - LIMIT_KB * 1000)}`);
  process.exit(1);
}
