import type { Clock, Database, Mailer, MailMessage } from '@sniplink/platform';
import { adminEmails } from '@sniplink/projections';
import type { Kysely, Transaction } from 'kysely';
import { ticketReference } from './notifications';

/** Each admin gets at most one mail about urgent tickets in this long. */
export const DIGEST_INTERVAL_MS = 10 * 60_000;
/** The tickets a digest names one by one; the rest are counted (the console lists them all). */
const LISTED_AT_MOST = 50;

export interface UrgentTicketDigestDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
}

export interface PendingUrgentTicket {
  ticketId: string;
  openedAt: Date;
}

/** What `send` did: mailed a digest of `tickets`, found nothing to send, or holds the tickets `until`. */
export type DigestOutcome =
  | { kind: 'sent'; tickets: number; admins: number }
  | { kind: 'nothing' }
  | { kind: 'held'; until: Date; waitMs: number };

/**
 * The admins hear of urgent tickets in digests, at most one every 10 minutes: a burst of urgent tickets is
 * one mail per admin listing them, not a mail per ticket. Each urgent ticket is recorded in
 * `support_urgent_notices` before its owner is answered; `send` mails every admin the tickets recorded and
 * deletes them, in one transaction that holds the lock on the digest's row: another process sending at
 * the same moment waits, then finds the digest just sent and holds its tickets for the next one. State
 * lives only in PostgreSQL, so a restart loses no ticket. A mail server that fails rolls the transaction
 * back: the tickets wait for the next attempt, and an admin mailed before the failure may get that digest
 * twice (never none).
 */
export class UrgentTicketDigest {
  constructor(private readonly deps: UrgentTicketDigestDeps) {}

  /** Records an urgent ticket for the next digest (recording it again changes nothing). */
  async record(ticketId: string): Promise<void> {
    await this.deps.db
      .insertInto('support_urgent_notices')
      .values({ ticket_id: ticketId, opened_at: this.deps.clock.now() })
      .onConflict((conflict) => conflict.column('ticket_id').doNothing())
      .execute();
  }

  /** Mails the digest of the recorded tickets to every admin, unless one went out less than 10 minutes ago. */
  send(): Promise<DigestOutcome> {
    return this.deps.db.transaction().execute(async (trx) => {
      const lastSentAt = await lockDigest(trx);
      const pending = await pendingTickets(trx);
      if (pending.length === 0) return { kind: 'nothing' };
      const now = this.deps.clock.now();
      const due = lastSentAt ? new Date(lastSentAt.getTime() + DIGEST_INTERVAL_MS) : now;
      if (now < due) return { kind: 'held', until: due, waitMs: due.getTime() - now.getTime() };
      const admins = await adminEmails(trx);
      for (const to of admins)
        await this.deps.mailer.send(urgentTicketsMail(to, pending, this.deps.publicUrl));
      const sent = pending.map((ticket) => ticket.ticketId);
      await trx.deleteFrom('support_urgent_notices').where('ticket_id', 'in', sent).execute();
      await trx
        .updateTable('support_urgent_digests')
        .set({ last_sent_at: now })
        .where('digest', '=', 'admins')
        .execute();
      return { kind: 'sent', tickets: pending.length, admins: admins.length };
    });
  }
}

async function lockDigest(trx: Transaction<Database>): Promise<Date | null> {
  const row = await trx
    .selectFrom('support_urgent_digests')
    .select('last_sent_at')
    .where('digest', '=', 'admins')
    .forUpdate()
    .executeTakeFirstOrThrow();
  return row.last_sent_at;
}

async function pendingTickets(trx: Transaction<Database>): Promise<PendingUrgentTicket[]> {
  const rows = await trx
    .selectFrom('support_urgent_notices')
    .select(['ticket_id', 'opened_at'])
    .orderBy('opened_at')
    .orderBy('ticket_id')
    .execute();
  return rows.map((row) => ({ ticketId: row.ticket_id, openedAt: row.opened_at }));
}

/**
 * One admin's digest: each ticket's reference and when it was opened, and the console's Support tab. No
 * subject or text: those are the users' and stay in the console.
 */
export function urgentTicketsMail(
  to: string,
  tickets: PendingUrgentTicket[],
  publicUrl: string,
): MailMessage {
  const [only] = tickets;
  const subject =
    tickets.length === 1 && only
      ? `Urgent support ticket ${ticketReference(only.ticketId)}`
      : `${tickets.length} urgent support tickets`;
  const listed = tickets.slice(0, LISTED_AT_MOST).map(({ ticketId, openedAt }) => {
    const opened = openedAt.toISOString().slice(0, 16).replace('T', ' ');
    return `  ${ticketReference(ticketId)}  opened ${opened} UTC`;
  });
  const more = tickets.length - listed.length;
  return {
    to,
    subject,
    text: [
      tickets.length === 1
        ? 'A user opened an urgent support ticket:'
        : 'Users opened urgent support tickets:',
      '',
      ...listed,
      ...(more > 0 ? [`  and ${more} more`] : []),
      '',
      `Read and answer them in the admin console's Support tab: ${publicUrl}/admin?tab=support`,
      '',
      '-- Sniplink',
    ].join('\n'),
  };
}
