import { type Kysely, sql } from 'kysely';

/**
 * The click analytics read model, fed from the click stream (not the event store), with the consumer's
 * offsets and the click ids it has counted, so one transaction moves counters, ids and offsets together.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Hourly counts per dimension; dimension 'total' (label 'all') is every human click of the hour, so
  // clicks per day read one short index range instead of summing a breakdown.
  await sql`
    CREATE TABLE rm_click_buckets (
      link_id uuid NOT NULL,
      hour timestamptz NOT NULL,
      dimension text NOT NULL,
      label text NOT NULL,
      clicks bigint NOT NULL,
      PRIMARY KEY (link_id, dimension, label, hour)
    )`.execute(db);
  // All-time counts per label: a breakdown reads a few rows per link however long its history, where
  // summing the hourly buckets would read hours x labels rows (about half a million a year for a busy link).
  await sql`
    CREATE TABLE rm_click_labels (
      link_id uuid NOT NULL,
      dimension text NOT NULL,
      label text NOT NULL,
      clicks bigint NOT NULL,
      PRIMARY KEY (link_id, dimension, label)
    )`.execute(db);
  await sql`
    CREATE TABLE rm_link_clicks (
      link_id uuid PRIMARY KEY,
      clicks bigint NOT NULL,
      bot_clicks bigint NOT NULL,
      last_click_at timestamptz
    )`.execute(db);
  // Click ids already counted. Pruned by when they were counted, not by the click's own time: a click
  // consumed late (the consumer was down for a week) must still meet its re-published twin.
  await sql`
    CREATE TABLE rm_click_ids (
      click_id uuid PRIMARY KEY,
      counted_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_click_ids_counted_at ON rm_click_ids (counted_at)`.execute(db);
  await sql`
    CREATE TABLE click_consumer_offsets (
      consumer text NOT NULL,
      partition integer NOT NULL,
      next_offset bigint NOT NULL,
      PRIMARY KEY (consumer, partition)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE click_consumer_offsets, rm_click_ids, rm_link_clicks, rm_click_labels, rm_click_buckets`.execute(
    db,
  );
}
