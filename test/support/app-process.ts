import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** What `npm start` runs: the server bundle that scripts/build-server.mjs writes. */
/** Where scripts/build-server.mjs writes the server's bundles. */
export const DIST_DIR = path.join(ROOT, 'services/standalone/dist');
const MAIN = path.join(DIST_DIR, 'main.mjs');
/** `npm run start:redirect`'s entry: the redirect as a process of its own. */
export const REDIRECT_MAIN = path.join(DIST_DIR, 'redirect-main.mjs');

/** As package.json's start scripts run the bundle (docs/operations.md, "Memory", says why the heap is capped). */
const NODE_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=1'];

let built = false;
/** Bundles the server from the current sources, once per test file (half a second; writes are atomic). */
export function ensureServerBuilt(): void {
  if (built) return;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`scripts/build-server.mjs failed:\n${result.stderr}`);
  built = true;
}

export interface AppProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Sends the signal and resolves with the exit code (or signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/** A free loopback port (the OS picks it; taken back at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts the app (or `main`) as `npm start` does, and waits until /readyz answers 200. */
export async function startAppProcess(
  env: Record<string, string | undefined>,
  timeoutMs = 90_000,
  main = MAIN,
  /** More node flags, e.g. `--cpu-prof` for a bench run. */
  nodeFlags: readonly string[] = [],
): Promise<AppProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'info',
    // Every test signs up from 127.0.0.1; a test of the sign-up limit sets its own.
    SIGNUP_MAX_PER_IP: '100000',
    ...env,
    PORT: String(port),
  };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const { child, output: collected } = spawnApp(childEnv, [...NODE_FLAGS, ...nodeFlags, main]);
  const output = () => collected.text;
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    return child.exitCode ?? child.signalCode;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}:\n${output()}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { child, baseUrl, output, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop('SIGKILL');
  throw new Error(`app not ready within ${timeoutMs} ms:\n${output()}`);
}

/** The bundled app started with these flags, its stdout and stderr gathered into one text. */
function spawnApp(env: NodeJS.ProcessEnv, args: string[]) {
  ensureServerBuilt();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { text: '' };
  const gather = (chunk: Buffer) => {
    output.text += chunk;
  };
  child.stdout?.on('data', gather);
  child.stderr?.on('data', gather);
  return { child, output };
}

/** Whether a process of this pid still runs. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the app as `npm start` does on `env` as given (PORT included) until it exits on its own: a start
 * that must fail. Killed, and reported, if it is still running after `timeoutMs`.
 */
export async function runAppUntilExit(
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...env };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const { child, output } = spawnApp(childEnv, [...NODE_FLAGS, MAIN]);
  const exited = once(child, 'exit');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
  if (child.signalCode === 'SIGKILL')
    throw new Error(`app still running after ${timeoutMs} ms:\n${output.text}`);
  return { code: child.exitCode, output: output.text };
}
