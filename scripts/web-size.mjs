// Prints how much gzipped JavaScript the landing page (`/`) loads: the entry, everything it imports
// statically, and the index route's own chunk with its imports (the dashboard and other routes are split
// off). The limit is 200 KB. Builds the web app first when it is stale.
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

/** A chunk's key and every chunk it imports statically, each once. */
function withStaticImports(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) withStaticImports(imported, seen);
  return seen;
}

const indexRoute = Object.keys(manifest).find((key) => key.startsWith('src/routes/index.tsx'));
const keys = withStaticImports('index.html');
if (indexRoute) withStaticImports(indexRoute, keys);
const files = [...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
const sizes = files.map((file) => ({ file, gzip: gzipSync(readFileSync(join(dist, file))).length }));
sizes.sort((a, b) => b.gzip - a.gzip);
for (const { file, gzip } of sizes) console.log(`${(gzip / 1000).toFixed(1).padStart(8)} kB  ${file}`);
const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
console.log(
  `landing page JavaScript: ${(total / 1000).toFixed(1)} kB (${(total / 1024).toFixed(1)} KiB) gzipped in ${sizes.length} files; limit ${LIMIT_KB} kB`,
);
