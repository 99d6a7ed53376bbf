import { type Kysely, sql } from 'kysely';

/**
 * E-mail verification: the single-use links mailed at sign-up (operational rows: only the token's
 * SHA-256, never an event), and the users read model's `email_verified` (filled by the users
 * projection's rebuild, version 3).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE email_verification_tokens (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL,
      email_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX email_verification_tokens_user ON email_verification_tokens (user_id)`.execute(db);
  await sql`ALTER TABLE rm_users ADD COLUMN email_verified boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE rm_users DROP COLUMN email_verified`.execute(db);
  await sql`DROP TABLE email_verification_tokens`.execute(db);
}
