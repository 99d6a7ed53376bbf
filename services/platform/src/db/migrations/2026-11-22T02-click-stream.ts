import { type Kysely, sql } from 'kysely';

/**
 * The Postgres click log, shaped like a Kafka topic: partitions with contiguous offsets. A publisher
 * takes the partition row's lock to draw offsets, so offsets of one partition commit in order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE cs_partitions (
      partition integer PRIMARY KEY,
      next_offset bigint NOT NULL DEFAULT 0
    )`.execute(db);
  await sql`
    CREATE TABLE cs_messages (
      partition integer NOT NULL,
      "offset" bigint NOT NULL,
      key text NOT NULL,
      value jsonb NOT NULL,
      published_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (partition, "offset")
    )`.execute(db);
  await sql`
    CREATE TABLE cs_group_offsets (
      group_id text NOT NULL,
      partition integer NOT NULL,
      next_offset bigint NOT NULL,
      PRIMARY KEY (group_id, partition)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE cs_group_offsets, cs_messages, cs_partitions`.execute(db);
}
