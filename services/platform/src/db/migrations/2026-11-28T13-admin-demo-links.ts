import { type Kysely, sql } from 'kysely';

/**
 * The demo links no account holds yet, for the admin Overview: its Total Links counts the accounts'
 * links, and says how many demo links stand beside them. A visitor's demo link is claimed by the
 * account they sign up with, or expires within days, so the set stays small.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Filled by the `admin-stats` projection (version 2 replays the log into it).
  await sql`CREATE TABLE rm_admin_demo_links (link_id uuid PRIMARY KEY)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_admin_demo_links`.execute(db);
}
