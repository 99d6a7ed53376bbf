import { type Kysely, sql } from 'kysely';

/**
 * A click stream publish as one statement: claiming the publish id, locking the partitions (in partition
 * order, so publishers never deadlock), drawing their offsets and storing the chunks took six round trips,
 * and the publisher held the batch (a few hundred KB) through all of them. Called with one text parameter
 * per chunk (`ARRAY[$6::text, ...]`): inside a text[] parameter the driver would escape every quote.
 * False when a publish with this id is stored already; an error, and nothing stored, when a partition's
 * row is missing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION cs_publish(
      publish_id text,
      partitions integer[],
      counts bigint[],
      chunk_partitions integer[],
      chunk_counts bigint[],
      chunks text[]
    ) RETURNS boolean LANGUAGE plpgsql AS $$
    DECLARE
      drawn integer;
    BEGIN
      IF publish_id IS NOT NULL THEN
        INSERT INTO cs_publishes (publish_id) VALUES (cs_publish.publish_id) ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
          RETURN false;
        END IF;
      END IF;
      PERFORM 1 FROM cs_partitions p WHERE p.partition = ANY (cs_publish.partitions)
        ORDER BY p.partition FOR UPDATE;
      WITH bases AS (
        UPDATE cs_partitions p SET next_offset = p.next_offset + c.count
        FROM unnest(cs_publish.partitions, cs_publish.counts) AS c(partition, count)
        WHERE p.partition = c.partition
        RETURNING p.partition, p.next_offset - c.count AS base
      ), chunk AS (
        SELECT k.partition, k.count, k.messages,
          sum(k.count) OVER (PARTITION BY k.partition ORDER BY k.at) - k.count AS skip
        FROM unnest(cs_publish.chunk_partitions, cs_publish.chunk_counts, cs_publish.chunks)
          WITH ORDINALITY AS k(partition, count, messages, at)
      ), stored AS (
        INSERT INTO cs_chunks (partition, first_offset, last_offset, messages)
        SELECT chunk.partition, bases.base + chunk.skip, bases.base + chunk.skip + chunk.count - 1, chunk.messages
        FROM chunk JOIN bases ON bases.partition = chunk.partition
      )
      SELECT count(*) INTO drawn FROM bases;
      IF drawn <> cardinality(cs_publish.partitions) THEN
        RAISE EXCEPTION 'Click stream partitions are missing; they will be recreated on the next publish'
          USING ERRCODE = 'SLP01';
      END IF;
      RETURN true;
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION cs_publish(text, integer[], bigint[], integer[], bigint[], text[])`.execute(db);
}
