import { type Kysely, sql } from 'kysely';

/**
 * Accounts. Operational tables (secrets, per-user keys, credentials, sessions, reset tokens, OIDC logins)
 * are never events and never touched by a projection rebuild. `rm_users` is the users read model.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE app_secrets (
      name text PRIMARY KEY,
      value bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE user_keys (
      user_id uuid PRIMARY KEY,
      key bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE user_credentials (
      user_id uuid PRIMARY KEY,
      password_hash text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE sessions (
      id_hash text PRIMARY KEY,
      user_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      user_agent text
    )`.execute(db);
  await sql`CREATE INDEX sessions_user ON sessions (user_id)`.execute(db);
  await sql`
    CREATE TABLE password_reset_tokens (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX password_reset_tokens_user ON password_reset_tokens (user_id)`.execute(db);
  await sql`
    CREATE TABLE oidc_logins (
      state text PRIMARY KEY,
      code_verifier text NOT NULL,
      nonce text NOT NULL,
      return_to text NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  // Counters of rate-limiter-flexible (its own column layout); expire is epoch milliseconds.
  await sql`
    CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`.execute(db);
  await sql`
    CREATE TABLE rm_users (
      user_id uuid PRIMARY KEY,
      email text,
      email_normalized text,
      first_name text,
      last_name text,
      profile_image_url text,
      subscription_status text NOT NULL DEFAULT 'inactive',
      subscription_plan text,
      suspended boolean NOT NULL DEFAULT false,
      erased boolean NOT NULL DEFAULT false,
      links_created_this_month integer NOT NULL DEFAULT 0,
      links_month text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_users_email ON rm_users (email_normalized)`.execute(db);
  await sql`CREATE INDEX rm_users_created ON rm_users (created_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_users, rate_limits, oidc_logins, password_reset_tokens, sessions, user_credentials, user_keys, app_secrets`.execute(
    db,
  );
}
