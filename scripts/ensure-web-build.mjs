// Builds the web app (npm run build -w web) when web/dist/index.html or the server's render of the pages
// (web/dist/server/entry-server.js) is missing or older than its sources,
// so that `npm start` always serves the current front end. Exits non-zero when the build fails.
// Its sources: the web workspace's own files, the src and package.json of every workspace it depends on
// (read from the package.json files, so a workspace the web app comes to import is covered without a
// change here), and the lockfile, which fixes the libraries bundled with it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const web = join(repoRoot, 'web');
// What a build writes: the browser's page and the server's render of it (web/src/entry-server.tsx).
const builtFiles = [join(web, 'dist', 'index.html'), join(web, 'dist', 'server', 'entry-server.js')];

const readPackage = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
/** Each workspace's folder by its package name. */
const workspaceDirs = new Map(
  readPackage(repoRoot).workspaces.map((folder) => {
    const dir = join(repoRoot, folder);
    return [readPackage(dir).name, dir];
  }),
);
/** The workspaces the web app depends on, directly or through another workspace. */
function workspacesUnder(dir, found = new Set()) {
  const manifest = readPackage(dir);
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const workspace = workspaceDirs.get(name);
    if (workspace && !found.has(workspace)) {
      found.add(workspace);
      workspacesUnder(workspace, found);
    }
  }
  return found;
}
const sources = [
  ...['src', 'index.html', 'vite.config.ts', 'postcss.config.cjs', 'package.json'].map((name) =>
    join(web, name),
  ),
  ...[...workspacesUnder(web)].flatMap((dir) => [join(dir, 'src'), join(dir, 'package.json')]),
  join(repoRoot, 'package-lock.json'),
];

/** Modification time of a file, or of the newest file under a folder; 0 when missing. */
function newestMtime(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), 0);
}

// The older of the two: a build that wrote only one of them (or an older build, without the server's) is stale.
const builtAt = Math.min(...builtFiles.map(newestMtime));
const changedAt = Math.max(...sources.map(newestMtime));
if (builtAt > 0 && builtAt >= changedAt) process.exit(0);

console.log(builtAt === 0 ? 'web: no build yet, building…' : 'web: sources changed, rebuilding…');
// Under `npm start`, npm_execpath is npm's own CLI: run it with this Node, which needs no shell on any OS.
const npmCli = process.env.npm_execpath;
const buildArgs = ['run', 'build', '-w', 'web'];
const [command, args] = npmCli?.endsWith('npm-cli.js')
  ? [process.execPath, [npmCli, ...buildArgs]]
  : ['npm', buildArgs];
// NODE_ENV=production whatever the caller's: under vitest (NODE_ENV=test) Vite would bundle React's
// development build, twice the size and slower.
const env = { ...process.env, NODE_ENV: 'production' };
const result = spawnSync(command, args, { cwd: repoRoot, env, stdio: 'inherit', shell: false });

if (result.error) {
  console.error(`web: could not run the build: ${result.error.message}`);
  process.exit(1);
}
if (result.status !== 0) {
  console.error(`web: build failed (${result.signal ?? `exit code ${result.status}`})`);
  process.exit(result.status || 1);
}
