import { type Kysely, sql } from 'kysely';

/**
 * API keys: one row per live key, found by the SHA-256 of its secret (the secret itself is never stored).
 * A revoked key's row is deleted, so a lookup cannot find it; the key's life is in the owner's
 * `apikeys-{id}` stream as well, without the hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE api_keys (
      key_id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      secret_hash text NOT NULL UNIQUE,
      name text NOT NULL,
      scopes text[] NOT NULL,
      hint text NOT NULL,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz,
      expires_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX api_keys_by_user ON api_keys (user_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE api_keys`.execute(db);
}
