import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type Logger } from '@sniplink/platform';

/** Where the generated webhook signing secret is kept, in DATA_DIR. */
export const WEBHOOK_SECRET_FILE = 'webhook-secret';

/**
 * The secret webhooks are signed with: STRIPE_WEBHOOK_SECRET when set; else one generated at the first
 * start and kept in DATA_DIR/webhook-secret (mode 0600), the same on every start after. Only the local
 * provider runs without the setting (Stripe requires it); it signs its events with this secret and checks
 * them in the same process, so where DATA_DIR cannot be used (the app still starts: see the click spill)
 * a secret for this run alone does, with a warning.
 */
export async function webhookSigningSecret(
  configured: string | undefined,
  dataDir: string,
  log: Logger,
): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, WEBHOOK_SECRET_FILE);
  let kept: string | undefined;
  try {
    kept = await readSecret(file);
  } catch (error) {
    if (error instanceof NotASecretError) throw error;
    return secretForThisRun(file, error, log);
  }
  if (kept) return kept;
  try {
    return await createSecret(file);
  } catch (error) {
    return secretForThisRun(file, error, log);
  }
}

function secretForThisRun(file: string, err: unknown, log: Logger): string {
  log.warn(
    { err, file },
    'the webhook signing secret cannot be kept in DATA_DIR: the local payments use one for this run only',
  );
  return newSecret();
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** A file an operator can fix (or delete): reported as a bad setting is, exit 2. */
class NotASecretError extends ConfigError {}

async function readSecret(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const secret = text.trim();
  if (!/^whsec_\S+$/.test(secret)) {
    throw new NotASecretError([
      `${file} does not hold a webhook signing secret (whsec_…): delete it to have a new one made, or set STRIPE_WEBHOOK_SECRET`,
    ]);
  }
  return secret;
}

/**
 * Writes a new secret under a name of its own, then links it into place: the link fails if another
 * process got there first, whose secret is then the one (never a half-written file, never two secrets).
 */
async function createSecret(file: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  const secret = newSecret();
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = await readSecret(file);
    if (theirs === undefined) throw error;
    return theirs;
  } finally {
    await rm(draft, { force: true });
  }
}
