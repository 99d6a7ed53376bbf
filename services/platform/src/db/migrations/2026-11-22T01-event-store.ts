import { type Kysely, sql } from 'kysely';

/**
 * The Postgres event store. `transaction_id` (the writer's xid8, assigned before the position is drawn)
 * with `position` orders the global log; readers only see rows of transactions older than every
 * transaction still running, so a late commit can never be skipped (docs/architecture.md, "Event store").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE es_streams (
      stream_id text PRIMARY KEY,
      revision bigint NOT NULL
    )`.execute(db);
  await sql`CREATE SEQUENCE es_events_position_seq AS bigint`.execute(db);
  await sql`
    CREATE TABLE es_events (
      transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      position bigint NOT NULL DEFAULT nextval('es_events_position_seq'),
      event_id uuid NOT NULL,
      stream_id text NOT NULL,
      revision bigint NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      actor_id text,
      occurred_at timestamptz NOT NULL,
      PRIMARY KEY (transaction_id, position),
      UNIQUE (stream_id, revision),
      UNIQUE (event_id)
    )`.execute(db);
  await sql`CREATE INDEX es_events_type_order ON es_events (type, transaction_id, position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE es_events`.execute(db);
  await sql`DROP SEQUENCE es_events_position_seq`.execute(db);
  await sql`DROP TABLE es_streams`.execute(db);
}
