import { createHash, randomBytes } from 'node:crypto';
import type { Clock, Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';

export const SESSION_COOKIE = 'sid';

export interface SessionSettings {
  idleMinutes: number;
  maxDays: number;
}

export interface ActiveSession {
  userId: string;
  idHash: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** How stale `last_seen_at` may get before a request writes it again (keeps reads from writing). */
const TOUCH_AFTER_MS = 60_000;

/**
 * Server-side sessions: the cookie holds 32 random bytes; the table holds only their hash, so a leaked
 * table cannot be replayed. Idle and absolute timeouts are both enforced on every lookup.
 */
export class SessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    readonly settings: SessionSettings,
    /** Every timeout is measured on it (not the database's `now()`), so the two can never disagree. */
    private readonly clock: Clock,
  ) {}

  async create(
    userId: string,
    userAgent: string | undefined,
  ): Promise<{ token: string; maxAgeSeconds: number }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const maxAgeSeconds = this.settings.maxDays * 86_400;
    await this.db
      .insertInto('sessions')
      .values({
        id_hash: hashOf(token),
        user_id: userId,
        created_at: now,
        last_seen_at: now,
        expires_at: new Date(now.getTime() + maxAgeSeconds * 1000),
        user_agent: userAgent?.slice(0, 300) ?? null,
      })
      .execute();
    return { token, maxAgeSeconds };
  }

  async resolve(token: string | undefined): Promise<ActiveSession | null> {
    if (!token || token.length > 100) return null;
    const idHash = hashOf(token);
    const now = this.clock.now();
    const row = await this.db
      .selectFrom('sessions')
      .select(['user_id', 'last_seen_at'])
      .where('id_hash', '=', idHash)
      .where('expires_at', '>', now)
      .where('last_seen_at', '>', new Date(now.getTime() - this.settings.idleMinutes * 60_000))
      .executeTakeFirst();
    if (!row) return null;
    if (now.getTime() - row.last_seen_at.getTime() > TOUCH_AFTER_MS) {
      await this.db
        .updateTable('sessions')
        .set({ last_seen_at: now })
        .where('id_hash', '=', idHash)
        .execute();
    }
    return { userId: row.user_id, idHash };
  }

  async destroy(token: string | undefined): Promise<void> {
    if (!token) return;
    await this.db.deleteFrom('sessions').where('id_hash', '=', hashOf(token)).execute();
  }

  /** Ends every session of the user: sign-out everywhere, password change, suspension, erasure. */
  async destroyAllFor(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
