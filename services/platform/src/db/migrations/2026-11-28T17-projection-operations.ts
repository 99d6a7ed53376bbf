import { type Kysely, sql } from 'kysely';

/**
 * What the operators' projection health shows beyond the checkpoints: each projection's runner (who holds
 * it, its last error) and its blue/green rebuild (where the new copy is, how fast it goes), which a rebuild
 * stopped by a crash resumes from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE projection_runs (
      name text PRIMARY KEY,
      holder text,
      held_since timestamptz,
      failing boolean NOT NULL DEFAULT false,
      last_error text,
      last_error_at timestamptz
    )`.execute(db);
  await sql`
    CREATE TABLE projection_rebuilds (
      name text PRIMARY KEY,
      version integer NOT NULL,
      state text NOT NULL,
      commit_position bigint NOT NULL,
      prepare_position bigint NOT NULL,
      applied bigint NOT NULL DEFAULT 0,
      events_per_second double precision,
      eta_seconds double precision,
      holder text,
      requested_by text,
      started_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      swap_ms double precision,
      error text
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE projection_rebuilds, projection_runs`.execute(db);
}
