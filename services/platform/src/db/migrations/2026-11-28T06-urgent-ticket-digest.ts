import { type Kysely, sql } from 'kysely';

/**
 * The admins' digest of urgent support tickets: the tickets no digest has listed yet, and when the last
 * digest went out (one row), which every process reads under a row lock before it sends one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE support_urgent_notices (
      ticket_id uuid PRIMARY KEY,
      opened_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE support_urgent_digests (
      digest text PRIMARY KEY,
      last_sent_at timestamptz
    )`.execute(db);
  await sql`INSERT INTO support_urgent_digests (digest) VALUES ('admins')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE support_urgent_digests, support_urgent_notices`.execute(db);
}
