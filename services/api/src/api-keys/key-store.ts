import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, type ApiKeyScope, apiKeyScopes } from '@sniplink/contracts';
import type { Clock, Database } from '@sniplink/platform';
import { userById } from '@sniplink/projections';
import type { Kysely, Selectable } from 'kysely';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { BearerKeys, KeyAllowance, KeyHolder } from '../http/bearer';
import type { RateLimiters } from '../http/rate-limiter';
import type { Settings } from '../shared/settings';

type ApiKeyRow = Selectable<Database['api_keys']>;

/** A new key's secret: `sk_live_` and 24 random bytes in base64url (192 bits, 32 characters). */
export function newSecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

/** What the list shows of a secret: its prefix, first 4 and last 4 characters. */
export const hintOf = (secret: string): string => {
  const body = secret.slice(API_KEY_PREFIX.length);
  return `${API_KEY_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
};

/**
 * SHA-256, not a password hash: the secret carries 192 random bits, so no dictionary or brute force can
 * find it from its hash, and a fast hash keeps the per-request lookup a single index probe (argon2 would
 * cost tens of milliseconds on every call, and cannot be looked up by value).
 */
const hashOf = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** How stale `last_used_at` may get before a call writes it again: at most one write a minute per key. */
const TOUCH_AFTER_MS = 60_000;
/** A secret this long or longer is none of ours: refused before it is hashed. */
const MAX_SECRET_LENGTH = 200;

export interface ApiKeyStoreDeps {
  db: Kysely<Database>;
  clock: Clock;
  limiters: RateLimiters;
  /** `api_keys.requests_per_minute`, read on every call (an admin's change applies at once). */
  settings: Settings;
}

export interface NewKeyRow {
  keyId: string;
  userId: string;
  secret: string;
  name: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  expiresAt: Date | null;
}

/**
 * The live API keys: the operational table `api_keys`, which holds each key's hash and never its secret.
 * Every bearer call looks its key up here (no cache: one primary-key probe, so a revoke in any process
 * refuses the key's next call everywhere), and counts against the key's limit in the shared counters.
 */
export class ApiKeyStore implements BearerKeys {
  /** One counter per limit in force (the admin may change it); the key's count continues across them. */
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(private readonly deps: ApiKeyStoreDeps) {}

  async insert(row: NewKeyRow): Promise<void> {
    await this.deps.db
      .insertInto('api_keys')
      .values({
        key_id: row.keyId,
        user_id: row.userId,
        secret_hash: hashOf(row.secret).toString('hex'),
        name: row.name,
        scopes: row.scopes,
        hint: hintOf(row.secret),
        created_at: row.createdAt,
        last_used_at: null,
        expires_at: row.expiresAt,
      })
      .execute();
  }

  /** The user's live keys (expired ones included, until revoked), newest first; a malformed id has none. */
  async listOf(userId: string): Promise<ApiKeyRow[]> {
    if (!isUuid(userId)) return [];
    return this.deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('key_id', 'desc')
      .execute();
  }

  /** Deletes one of the user's keys: its next call is refused in every process. */
  async remove(userId: string, keyId: string): Promise<void> {
    await this.deps.db
      .deleteFrom('api_keys')
      .where('user_id', '=', userId)
      .where('key_id', '=', keyId)
      .execute();
  }

  async removeAllOf(userId: string): Promise<void> {
    await this.deps.db.deleteFrom('api_keys').where('user_id', '=', userId).execute();
  }

  async resolve(secret: string): Promise<KeyHolder | null> {
    if (!secret.startsWith(API_KEY_PREFIX) || secret.length > MAX_SECRET_LENGTH) return null;
    const hash = hashOf(secret);
    const now = this.deps.clock.now();
    const row = await this.deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('secret_hash', '=', hash.toString('hex'))
      .executeTakeFirst();
    // The index found the row by value; the compare that decides is constant-time all the same.
    if (!row || !timingSafeEqual(Buffer.from(row.secret_hash, 'hex'), hash)) return null;
    if (row.expires_at && row.expires_at <= now) return null;
    const owner = await userById(this.deps.db, row.user_id);
    if (!owner || owner.erased || owner.suspended) return null;
    await this.touch(row, now);
    return { userId: row.user_id, keyId: row.key_id, scopes: scopesOf(row) };
  }

  async count(keyId: string): Promise<KeyAllowance> {
    const limit = this.deps.settings.current().apiKeyRequestsPerMinute;
    try {
      const taken = await this.limiterFor(limit).consume(keyId);
      return { limit, remaining: taken.remainingPoints, resetSeconds: seconds(taken), refused: false };
    } catch (rejection) {
      // A RateLimiterRes means "no points left"; anything else is the store failing, not the caller.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { limit, remaining: 0, resetSeconds: seconds(rejection), refused: true };
    }
  }

  /** Records the call at most once a minute per key, across processes (the update is conditional). */
  private async touch(row: ApiKeyRow, now: Date): Promise<void> {
    const staleBefore = new Date(now.getTime() - TOUCH_AFTER_MS);
    if (row.last_used_at && row.last_used_at > staleBefore) return;
    await this.deps.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('key_id', '=', row.key_id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', staleBefore)]))
      .execute();
  }

  private limiterFor(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = this.deps.limiters({ keyPrefix: 'apikey', points, durationSeconds: 60 });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}

const isUuid = (id: string) => z.uuid().safeParse(id).success;
const isScope = (scope: string): scope is ApiKeyScope => (apiKeyScopes as readonly string[]).includes(scope);
/** The row's scopes, each one the API knows (the column is text[]). */
export const scopesOf = (row: Pick<ApiKeyRow, 'scopes'>): ApiKeyScope[] => row.scopes.filter(isScope);
const seconds = (result: RateLimiterRes) => Math.max(1, Math.ceil(result.msBeforeNext / 1000));
