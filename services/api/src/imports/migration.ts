import { type Kysely, sql } from 'kysely';

/**
 * An import: the job (its choices, its preview, how far it is: `processed_rows` is the last row of the file
 * whose link is settled, so a job resumed after a crash starts after it), the uploaded file in pieces of
 * 1 MB (streamed in and out, never whole in memory), and what the source said of each imported link that a
 * Sniplink link has no field for (its creation date there, its click total there).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE import_jobs (
      import_id uuid PRIMARY KEY,
      owner_id uuid NOT NULL,
      actor text NOT NULL,
      format text NOT NULL,
      file_name text,
      status text NOT NULL,
      outside_plan boolean NOT NULL,
      conflicts text,
      row_limit integer,
      preview jsonb NOT NULL,
      total integer NOT NULL DEFAULT 0,
      processed_rows integer NOT NULL DEFAULT 0,
      processed integer NOT NULL DEFAULT 0,
      imported integer NOT NULL DEFAULT 0,
      renamed integer NOT NULL DEFAULT 0,
      skipped integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      imported_clicks bigint NOT NULL DEFAULT 0,
      problems jsonb NOT NULL DEFAULT '[]',
      lease_until timestamptz,
      created_at timestamptz NOT NULL,
      finished_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX import_jobs_by_owner ON import_jobs (owner_id, created_at)`.execute(db);
  await sql`CREATE INDEX import_jobs_running ON import_jobs (created_at) WHERE status = 'running'`.execute(
    db,
  );
  await sql`
    CREATE TABLE import_files (
      import_id uuid NOT NULL,
      seq integer NOT NULL,
      data bytea NOT NULL,
      PRIMARY KEY (import_id, seq)
    )`.execute(db);
  await sql`
    CREATE TABLE imported_links (
      link_id uuid PRIMARY KEY,
      import_id uuid NOT NULL,
      source_code text,
      source_created_at timestamptz,
      imported_clicks bigint
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE imported_links, import_files, import_jobs`.execute(db);
}
