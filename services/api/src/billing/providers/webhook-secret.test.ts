import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '@sniplink/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_SECRET_FILE, webhookSigningSecret } from './webhook-secret';

const dirs: string[] = [];
const dataDir = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-whsec-'));
  dirs.push(dir);
  return dir;
};
let warnings: string[];
const log = { warn: (_fields: unknown, message: string) => warnings.push(message) } as unknown as Logger;
beforeEach(() => {
  warnings = [];
});
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the webhook signing secret', () => {
  it('is STRIPE_WEBHOOK_SECRET when set, and nothing is written', async () => {
    const dir = await dataDir();
    expect(await webhookSigningSecret('whsec_configured', dir, log)).toBe('whsec_configured');
    expect(await readdir(dir)).toEqual([]);
  });

  it('is generated once into DATA_DIR/webhook-secret, readable by its owner only, and the same on every start', async () => {
    const dir = path.join(await dataDir(), 'not-there-yet');
    const first = await webhookSigningSecret(undefined, dir, log);
    expect(first).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await stat(path.join(dir, WEBHOOK_SECRET_FILE))).mode & 0o777).toBe(0o600);
    expect(await webhookSigningSecret(undefined, dir, log)).toBe(first);
    expect(await readdir(dir)).toEqual([WEBHOOK_SECRET_FILE]);
    expect(await webhookSigningSecret(undefined, await dataDir(), log)).not.toBe(first);
  });

  it('is one secret when processes start at once', async () => {
    const dir = await dataDir();
    const secrets = await Promise.all(
      Array.from({ length: 10 }, () => webhookSigningSecret(undefined, dir, log)),
    );
    expect(new Set(secrets).size).toBe(1);
    expect(await readdir(dir)).toEqual([WEBHOOK_SECRET_FILE]);
  });

  it('refuses a file that holds something else, saying what to do', async () => {
    const dir = await dataDir();
    await writeFile(path.join(dir, WEBHOOK_SECRET_FILE), 'oops\n');
    await expect(webhookSigningSecret(undefined, dir, log)).rejects.toThrow(
      /does not hold a webhook signing secret.*delete it.*STRIPE_WEBHOOK_SECRET/,
    );
  });

  it('where DATA_DIR cannot be used, is one for this run alone, with a warning (the app still starts)', async () => {
    const file = path.join(await dataDir(), 'a-file');
    await writeFile(file, '');
    const underAFile = path.join(file, 'data');
    const first = await webhookSigningSecret(undefined, underAFile, log);
    expect(first).toMatch(/^whsec_/);
    expect(await webhookSigningSecret(undefined, underAFile, log)).not.toBe(first);
    expect(warnings).toEqual([
      'the webhook signing secret cannot be kept in DATA_DIR: the local payments use one for this run only',
      'the webhook signing secret cannot be kept in DATA_DIR: the local payments use one for this run only',
    ]);
  });
});
