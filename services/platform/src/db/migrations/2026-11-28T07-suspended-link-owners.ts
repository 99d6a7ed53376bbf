import { type Kysely, sql } from 'kysely';

/**
 * The links read model's owners who are suspended: a cache miss of the redirect joins it by the link's
 * (or premium slug's) owner, so a suspended account's links answer a page instead of redirecting. Filled
 * from the users read model for the suspensions recorded before the links projection followed them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_link_owners (
      owner_id text PRIMARY KEY,
      suspended boolean NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`
    INSERT INTO rm_link_owners (owner_id, suspended, last_revision)
    SELECT user_id::text, true, last_revision FROM rm_users WHERE suspended`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_link_owners`.execute(db);
}
