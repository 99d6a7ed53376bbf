import { type Kysely, sql } from 'kysely';

/** Projection checkpoints, and the first read model: a catalogue of event streams. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY,
      version integer NOT NULL,
      commit_position bigint NOT NULL,
      prepare_position bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE rm_streams (
      stream_id text PRIMARY KEY,
      category text NOT NULL,
      last_revision bigint NOT NULL,
      event_count bigint NOT NULL,
      last_event_type text NOT NULL,
      first_event_at timestamptz NOT NULL,
      last_event_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_streams_category ON rm_streams (category, last_event_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_streams, projection_checkpoints`.execute(db);
}
