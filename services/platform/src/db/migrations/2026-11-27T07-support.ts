import { type Kysely, sql } from 'kysely';

/**
 * The support read model: every ticket as its last event left it, and each ticket's
 * conversation, with the owner's texts decrypted (filled by the support projection; a user's rows are
 * dropped when the user is erased).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rm_support_tickets (
      ticket_id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      subject text NOT NULL,
      message text NOT NULL,
      priority text NOT NULL,
      status text NOT NULL,
      assignee_id uuid,
      auto_close_after timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_support_tickets_by_user ON rm_support_tickets (user_id, created_at DESC)`.execute(
    db,
  );
  // The console's order: urgent first, then newest.
  await sql`
    CREATE INDEX rm_support_tickets_console
      ON rm_support_tickets ((priority = 'urgent') DESC, created_at DESC, ticket_id DESC)
  `.execute(db);
  await sql`
    CREATE INDEX rm_support_tickets_auto_close ON rm_support_tickets (auto_close_after)
      WHERE status = 'resolved'
  `.execute(db);
  await sql`
    CREATE TABLE rm_support_messages (
      message_id uuid PRIMARY KEY,
      ticket_id uuid NOT NULL,
      user_id uuid NOT NULL,
      message text NOT NULL,
      is_from_admin boolean NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rm_support_messages_by_ticket ON rm_support_messages (ticket_id, created_at)`.execute(
    db,
  );
  await sql`CREATE INDEX rm_support_messages_by_user ON rm_support_messages (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE rm_support_messages, rm_support_tickets`.execute(db);
}
