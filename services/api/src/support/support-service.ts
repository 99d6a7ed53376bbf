import type {
  AdminTicket,
  AdminTicketsPage,
  Ticket,
  TicketEvent,
  TicketMessage,
  TicketPriority,
} from '@sniplink/contracts';
import { ticketStream } from '@sniplink/contracts';
import {
  NotFoundError,
  type TicketAuthor,
  type TicketCommand,
  type TicketState,
  ticketDecider,
} from '@sniplink/domain';
import { type CommandPipeline, commandHandler, type Keyring } from '@sniplink/platform';
import {
  supportReadModel,
  supportTicket,
  supportTicketsPage,
  type TicketFilter,
  ticketMessages,
  ticketsOf,
} from '@sniplink/projections';
import { z } from 'zod';
import type { AccountService } from '../accounts/accounts';
import type { ServiceDeps } from '../shared/service-deps';
import type { SupportMail } from './notifications';

export interface SupportServiceDeps extends ServiceDeps {
  keyring: Keyring;
  /** Whether the ticket's owner still has an account (an erased one has no key to write under). */
  accounts: Pick<AccountService, 'user'>;
  mail: SupportMail;
}

export interface NewTicket {
  subject: string;
  message: string;
  priority: TicketPriority;
}

const notFound = () => new NotFoundError('No such ticket');
/** A malformed id names no ticket: 404, as another user's (never a database error on a uuid column). */
const isTicketId = (id: string) => z.uuid().safeParse(id).success;

/**
 * A ticket's commands: its stream, answered once the support read model shows the change; a malformed
 * ticket id is a 404 before any stream is read.
 */
export const ticketCommands = {
  decider: ticketDecider,
  stream: ticketStream,
  projection: supportReadModel,
  guard: (ticketId: string) => {
    if (!isTicketId(ticketId)) throw notFound();
  },
};

/**
 * Support tickets (the Support Center, and the console's Support tab): one stream per ticket,
 * `ticket-{id}`. Every text is encrypted under the owner's key before it is appended (staff replies too),
 * so erasing the account makes them unreadable. A ticket is its owner's alone: any other user meets a 404,
 * exactly as for an id that does not exist.
 */
export class SupportService {
  /**
   * A ticket's commands, one at a time per ticket in this process (a double click resolves by the
   * rules); each answer waits for the support read model to show the change (bounded wait).
   */
  private readonly tickets: CommandPipeline<TicketCommand, TicketState, TicketEvent>;

  constructor(private readonly deps: SupportServiceDeps) {
    this.tickets = commandHandler(deps, ticketCommands);
  }

  /** Waits for the mails still being sent (the server is stopping). */
  drainMail(): Promise<void> {
    return this.deps.mail.drain();
  }

  /** The user's tickets, newest first. */
  ticketsOf(userId: string): Promise<Ticket[]> {
    return ticketsOf(this.deps.db, userId);
  }

  async open(userId: string, { subject, message, priority }: NewTicket): Promise<Ticket> {
    const { keyring, ids } = this.deps;
    const ticketId = ids.newId();
    await this.tickets.handle(ticketId, {
      type: 'OpenTicket',
      ticketId,
      userId,
      subject: await keyring.encrypt(userId, subject),
      messageId: ids.newId(),
      message: await keyring.encrypt(userId, message),
      priority,
    });
    if (priority === 'urgent') await this.deps.mail.urgentTicketOpened(ticketId);
    const now = this.deps.clock.now().toISOString();
    const opened = await this.ownedTicket(userId, ticketId).catch(() => null);
    return (
      opened ?? { id: ticketId, subject, message, priority, status: 'open', createdAt: now, updatedAt: now }
    );
  }

  /** The conversation of one of the user's tickets, oldest first. */
  async messagesOf(userId: string, ticketId: string): Promise<TicketMessage[]> {
    await this.ownedTicket(userId, ticketId);
    return ticketMessages(this.deps.db, ticketId);
  }

  /** The owner writes to their ticket: 409 once closed; a resolved one reopens. */
  async postByOwner(userId: string, ticketId: string, message: string): Promise<TicketMessage> {
    await this.ownerOf(ticketId, userId);
    return this.post(ticketId, userId, message, { role: 'owner', userId });
  }

  /** The owner closes their ticket (closing it again changes nothing). */
  async closeByOwner(userId: string, ticketId: string): Promise<Ticket> {
    await this.ownerOf(ticketId, userId);
    await this.tickets.handle(ticketId, {
      type: 'ChangeTicketStatus',
      status: 'closed',
      by: 'owner',
      now: this.deps.clock.now(),
    });
    return this.ownedTicket(userId, ticketId);
  }

  /** The Support tab's page of tickets. */
  page(filter: TicketFilter): Promise<AdminTicketsPage> {
    return supportTicketsPage(this.deps.db, filter);
  }

  async messagesForStaff(ticketId: string): Promise<TicketMessage[]> {
    await this.listedTicket(ticketId);
    return ticketMessages(this.deps.db, ticketId);
  }

  /** The calling admin takes the ticket: in progress from now on if it was open. */
  async assign(ticketId: string, adminId: string): Promise<AdminTicket> {
    await this.listedTicket(ticketId);
    await this.tickets.handle(ticketId, { type: 'AssignTicket', assigneeId: adminId });
    return this.afterStaffChange(ticketId);
  }

  /** A staff reply ("Support Team"): the owner is mailed that there is an answer. */
  async replyAsStaff(ticketId: string, adminId: string, message: string): Promise<TicketMessage> {
    const ticket = await this.listedTicket(ticketId);
    const posted = await this.post(ticketId, ticket.userId, message, { role: 'staff', userId: adminId });
    this.deps.mail.staffReplied(ticket.userId, ticketId, message);
    return posted;
  }

  async setStatusAsStaff(ticketId: string, status: 'resolved' | 'closed'): Promise<AdminTicket> {
    await this.listedTicket(ticketId);
    await this.tickets.handle(ticketId, {
      type: 'ChangeTicketStatus',
      status,
      by: 'staff',
      now: this.deps.clock.now(),
    });
    return this.afterStaffChange(ticketId);
  }

  private async post(
    ticketId: string,
    ownerId: string,
    message: string,
    author: TicketAuthor,
  ): Promise<TicketMessage> {
    const messageId = this.deps.ids.newId();
    await this.tickets.handle(ticketId, {
      type: 'PostMessage',
      messageId,
      message: await this.deps.keyring.encrypt(ownerId, message),
      author,
    });
    return {
      id: messageId,
      message,
      isFromAdmin: author.role === 'staff',
      createdAt: this.deps.clock.now().toISOString(),
    };
  }

  /** The ticket's owner by its stream (the authority): anyone else, or no such ticket, is a 404. */
  private async ownerOf(ticketId: string, userId: string): Promise<TicketState> {
    const state = await this.tickets.load(ticketId);
    if (state.ownerId !== userId) throw notFound();
    return state;
  }

  private async ownedTicket(userId: string, ticketId: string): Promise<Ticket> {
    if (!isTicketId(ticketId)) throw notFound();
    const ticket = await supportTicket(this.deps.db, ticketId);
    if (!ticket || ticket.userId !== userId) throw notFound();
    const { userId: _owner, userEmail: _email, assignedTo: _assignee, ...own } = ticket;
    return own;
  }

  /**
   * The ticket as the console lists it. One whose owner was erased is gone from the list and is a 404:
   * nothing is written under a key that was shredded.
   */
  private async listedTicket(ticketId: string): Promise<AdminTicket> {
    if (!isTicketId(ticketId)) throw notFound();
    const ticket = await supportTicket(this.deps.db, ticketId);
    if (!ticket || !(await this.deps.accounts.user(ticket.userId))) throw notFound();
    return ticket;
  }

  private async afterStaffChange(ticketId: string): Promise<AdminTicket> {
    const ticket = await supportTicket(this.deps.db, ticketId);
    if (!ticket) throw notFound();
    return ticket;
  }
}
