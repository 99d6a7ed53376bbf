import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a CLI script as `npm run` does (`node --import tsx <script>`), as a real child process.
 * Asynchronous on purpose: a test app in this process must keep serving and projecting meanwhile, since
 * the CLI waits for that app's projection runners (spawnSync would freeze them until the wait times out).
 */
export async function runCliProcess(
  script: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const [code] = await once(child, 'close');
    return { status: code as number | null, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}
