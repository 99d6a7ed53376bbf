import { type Kysely, sql } from 'kysely';

/**
 * The audit history: one row per event that an admin's console request or an operator's
 * command-line tool appended, with where it sits in the log (its newest-first order), who did it, and
 * what it was done to. Filled by the admin audit projection; paged by acting admin and by target.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_admin_audit (
      event_id uuid PRIMARY KEY,
      log_commit bigint NOT NULL,
      log_prepare bigint NOT NULL,
      occurred_at timestamptz NOT NULL,
      actor_id text NOT NULL,
      channel text NOT NULL,
      action text NOT NULL,
      stream_id text NOT NULL,
      target_type text NOT NULL,
      target_id text NOT NULL,
      details jsonb NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_admin_audit_newest ON rm_admin_audit (log_commit DESC, log_prepare DESC)`.execute(
    db,
  );
  await sql`
    CREATE INDEX rm_admin_audit_actor ON rm_admin_audit (actor_id, log_commit DESC, log_prepare DESC)`.execute(
    db,
  );
  await sql`
    CREATE INDEX rm_admin_audit_stream ON rm_admin_audit (stream_id, log_commit DESC, log_prepare DESC)`.execute(
    db,
  );
  await sql`
    CREATE INDEX rm_admin_audit_target ON rm_admin_audit (target_id, log_commit DESC, log_prepare DESC)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_admin_audit`.execute(db);
}
