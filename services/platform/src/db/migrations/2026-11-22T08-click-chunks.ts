import { type Kysely, sql } from 'kysely';

/**
 * The click log stores a publish's messages for one partition as one row (a chunk of consecutive
 * offsets) instead of a row per message: a row per click cost the server a heap tuple, an index entry
 * and their WAL on publish, and a row to read and parse on consume, which made PostgreSQL the busiest
 * part of a redirect. cs_publishes remembers recent publish ids so that a publish re-sent after an
 * ambiguous failure is stored once. Messages already in cs_messages move over, one chunk each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE cs_chunks (
      partition integer NOT NULL,
      first_offset bigint NOT NULL,
      last_offset bigint NOT NULL,
      messages jsonb NOT NULL,
      published_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (partition, last_offset),
      CHECK (last_offset >= first_offset)
    )`.execute(db);
  await sql`
    INSERT INTO cs_chunks (partition, first_offset, last_offset, messages, published_at)
    SELECT partition, "offset", "offset", jsonb_build_array(jsonb_build_array(key, value)), published_at
    FROM cs_messages`.execute(db);
  await sql`DROP TABLE cs_messages`.execute(db);
  await sql`
    CREATE TABLE cs_publishes (
      publish_id text PRIMARY KEY,
      published_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
    INSERT INTO cs_messages (partition, "offset", key, value, published_at)
    SELECT c.partition, c.first_offset + m.i - 1, m.message->>0, m.message->1, c.published_at
    FROM cs_chunks c CROSS JOIN LATERAL jsonb_array_elements(c.messages) WITH ORDINALITY AS m(message, i)`.execute(
    db,
  );
  await sql`DROP TABLE cs_publishes, cs_chunks`.execute(db);
}
