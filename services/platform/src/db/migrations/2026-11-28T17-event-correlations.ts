import { type Kysely, sql } from 'kysely';

/**
 * The event console's read model: each event's correlation id with its stream, revision and place in the
 * log, so one request's events are found across streams. And the stream catalogue's newest-first order,
 * which the console's list of streams pages through.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_event_correlations (
      event_id text PRIMARY KEY,
      correlation_id text NOT NULL,
      stream_id text NOT NULL,
      revision bigint NOT NULL,
      log_commit bigint NOT NULL,
      log_prepare bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE INDEX rm_event_correlations_by_id
      ON rm_event_correlations (correlation_id, log_commit, log_prepare)`.execute(db);
  await sql`CREATE INDEX rm_streams_newest ON rm_streams (last_event_at DESC, stream_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX rm_streams_newest`.execute(db);
  await sql`DROP TABLE rm_event_correlations`.execute(db);
}
