import {
  ADMIN_TICKETS_PAGE_SIZE,
  type AdminTicket,
  type AdminTicketsPage,
  type Ticket,
  type TicketCounts,
  type TicketMessage,
  type TicketPriority,
  type TicketStatus,
  ticketPriorities,
  ticketStatuses,
} from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import { type Kysely, type Selectable, sql } from 'kysely';
import { withReadModels } from '../read-models';
import type { RmSupportTicketsTable } from './tables';

type TicketRow = Selectable<RmSupportTicketsTable>;

/** A user's tickets, newest first. */
export async function ticketsOf(db: Kysely<Database>, userId: string): Promise<Ticket[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_support_tickets')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('ticket_id', 'desc')
    .execute();
  return rows.map(toTicket);
}

/** One ticket as the console shows it, or null (unknown, or its owner was erased). */
export async function supportTicket(db: Kysely<Database>, ticketId: string): Promise<AdminTicket | null> {
  const row = await withReadModels(db)
    .selectFrom('rm_support_tickets as t')
    .leftJoin('rm_users as u', 'u.user_id', 't.user_id')
    .selectAll('t')
    .select('u.email')
    .where('t.ticket_id', '=', ticketId)
    .executeTakeFirst();
  return row ? toAdminTicket(row) : null;
}

/** A ticket's conversation, oldest first. */
export async function ticketMessages(db: Kysely<Database>, ticketId: string): Promise<TicketMessage[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_support_messages')
    .select(['message_id', 'message', 'is_from_admin', 'created_at'])
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at')
    .orderBy('message_id')
    .execute();
  return rows.map((row) => ({
    id: row.message_id,
    message: row.message,
    isFromAdmin: row.is_from_admin,
    createdAt: row.created_at.toISOString(),
  }));
}

export interface TicketFilter {
  status?: TicketStatus;
  priority?: TicketPriority;
  page: number;
}

/** The Support tab: a page of tickets (urgent first, then newest), how many match, and the counts. */
export async function supportTicketsPage(
  db: Kysely<Database>,
  filter: TicketFilter,
): Promise<AdminTicketsPage> {
  const rm = withReadModels(db);
  let matching = rm.selectFrom('rm_support_tickets as t');
  if (filter.status) matching = matching.where('t.status', '=', filter.status);
  if (filter.priority) matching = matching.where('t.priority', '=', filter.priority);
  const [rows, total, counts] = await Promise.all([
    matching
      .leftJoin('rm_users as u', 'u.user_id', 't.user_id')
      .selectAll('t')
      .select('u.email')
      .orderBy(sql`(t.priority = 'urgent')`, 'desc')
      .orderBy('t.created_at', 'desc')
      .orderBy('t.ticket_id', 'desc')
      .limit(ADMIN_TICKETS_PAGE_SIZE)
      .offset((filter.page - 1) * ADMIN_TICKETS_PAGE_SIZE)
      .execute(),
    matching.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
    ticketCounts(db),
  ]);
  return {
    tickets: rows.map(toAdminTicket),
    page: filter.page,
    pageSize: ADMIN_TICKETS_PAGE_SIZE,
    total: Number(total.count),
    counts,
  };
}

/** How many tickets stand in each status. */
export async function ticketCounts(db: Kysely<Database>): Promise<TicketCounts> {
  const rows = await withReadModels(db)
    .selectFrom('rm_support_tickets')
    .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
    .groupBy('status')
    .execute();
  const counts: TicketCounts = { open: 0, in_progress: 0, resolved: 0, closed: 0 };
  for (const row of rows) if (isStatus(row.status)) counts[row.status] = Number(row.count);
  return counts;
}

/** Resolved tickets whose 7 days are over at `now`: the auto-close sweep's work, oldest first. */
export async function ticketsDueToClose(db: Kysely<Database>, now: Date, limit: number): Promise<string[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_support_tickets')
    .select('ticket_id')
    .where('status', '=', 'resolved')
    .where('auto_close_after', '<=', now)
    .orderBy('auto_close_after')
    .limit(limit)
    .execute();
  return rows.map((row) => row.ticket_id);
}

/** The addresses of the admins (the users read model's flag), for the urgent-ticket mail. */
export async function adminEmails(db: Kysely<Database>): Promise<string[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_users')
    .select('email')
    .where('is_admin', '=', true)
    .where('erased', '=', false)
    .where('email', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.email ? [row.email] : []));
}

const isStatus = (value: string): value is TicketStatus =>
  (ticketStatuses as readonly string[]).includes(value);
const isPriority = (value: string): value is TicketPriority =>
  (ticketPriorities as readonly string[]).includes(value);

function toTicket(row: TicketRow): Ticket {
  return {
    id: row.ticket_id,
    subject: row.subject,
    message: row.message,
    priority: isPriority(row.priority) ? row.priority : 'medium',
    status: isStatus(row.status) ? row.status : 'open',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toAdminTicket(row: TicketRow & { email: string | null }): AdminTicket {
  return { ...toTicket(row), userId: row.user_id, userEmail: row.email, assignedTo: row.assignee_id };
}
