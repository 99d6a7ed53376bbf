import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_CACHE_MS = 5 * 60_000;
const KEY_CACHE_SIZE = 10_000;

/**
 * Per-user data keys for personal data in events (crypto-shredding). AES-256-GCM; the key lives in the
 * operational table `user_keys`, outside the event log. `shred` deletes it: every ciphertext written
 * under it becomes unreadable, in the log and in any rebuild.
 */
export class Keyring {
  private readonly cache = new Map<string, { key: Buffer; until: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  async encrypt(userId: string, plaintext: string): Promise<`enc:${string}`> {
    const key = await this.keyFor(userId, true);
    if (!key) throw new Error('No key for this user');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(userId));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  async encryptNullable(
    userId: string,
    plaintext: string | null | undefined,
  ): Promise<`enc:${string}` | null> {
    return plaintext === null || plaintext === undefined || plaintext === ''
      ? null
      : this.encrypt(userId, plaintext);
  }

  /** The plaintext, or null when the value is absent or the user's key was shredded. */
  async decrypt(userId: string, token: string | null): Promise<string | null> {
    if (token === null) return null;
    if (!token.startsWith(PREFIX)) throw new Error('Not an encrypted value');
    const key = await this.keyFor(userId, false);
    if (!key) return null;
    const raw = Buffer.from(token.slice(PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }

  async shred(userId: string): Promise<void> {
    this.cache.delete(userId);
    await this.db.deleteFrom('user_keys').where('user_id', '=', userId).execute();
  }

  private async keyFor(userId: string, create: boolean): Promise<Buffer | null> {
    const cached = this.cache.get(userId);
    if (cached && cached.until > Date.now()) return cached.key;
    if (create) {
      await this.db
        .insertInto('user_keys')
        .values({ user_id: userId, key: randomBytes(32) })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
    }
    const row = await this.db
      .selectFrom('user_keys')
      .select('key')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return null;
    if (this.cache.size >= KEY_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(userId, { key: row.key, until: Date.now() + KEY_CACHE_MS });
    return row.key;
  }
}

/** Install-wide random secrets, made on first use and shared by every process through the database. */
export async function appSecret(db: Kysely<Database>, name: string): Promise<Buffer> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: randomBytes(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** A keyed hash (HMAC-SHA256, hex): names streams after personal data without revealing it. */
export function keyedHash(secret: Buffer, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex').slice(0, 40);
}
