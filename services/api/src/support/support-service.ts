import type {
  AdminTicket,
  AdminTicketsPage,
  Ticket,
  TicketMessage,
  TicketPriority,
} from '@sniplink/contracts';
import {
  NotFoundError,
  type TicketAuthor,
  type TicketCommand,
  type TicketState,
  ticketDecider,
  ticketStreamId,
} from '@sniplink/domain';
import {
  type Clock,
  type Database,
  type EventStore,
  type HandleOptions,
  handleCommand,
  type IdSource,
  KeyedMutex,
  type Keyring,
  type LogPosition,
  loadState,
} from '@sniplink/platform';
import {
  SUPPORT_PROJECTION,
  supportTicket,
  supportTicketsPage,
  type TicketFilter,
  ticketMessages,
  ticketsOf,
} from '@sniplink/projections';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AccountService, ReadModelWaiter } from '../accounts/accounts';
import type { SupportMail } from './notifications';

export interface SupportServiceDeps {
  eventStore: EventStore;
  db: Kysely<Database>;
  readModels: ReadModelWaiter;
  keyring: Keyring;
  /** Whether the ticket's owner still has an account (an erased one has no key to write under). */
  accounts: Pick<AccountService, 'user'>;
  mail: SupportMail;
  clock: Clock;
  ids: IdSource;
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
 * Support tickets (the Support Center, and the console's Support tab): one stream per ticket,
 * `ticket-{id}`. Every text is encrypted under the owner's key before it is appended (staff replies too),
 * so erasing the account makes them unreadable. A ticket is its owner's alone: any other user meets a 404,
 * exactly as for an id that does not exist.
 */
export class SupportService {
  /** One ticket's commands one at a time in this process (a double click resolves by the rules). */
  private readonly perTicket = new KeyedMutex();
  private readonly stamped: HandleOptions;

  constructor(private readonly deps: SupportServiceDeps) {
    this.stamped = { clock: deps.clock };
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
    const { position } = await this.run(ticketId, {
      type: 'OpenTicket',
      ticketId,
      userId,
      subject: await keyring.encrypt(userId, subject),
      messageId: ids.newId(),
      message: await keyring.encrypt(userId, message),
      priority,
    });
    await this.projected(position);
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
    const { position } = await this.run(ticketId, {
      type: 'ChangeTicketStatus',
      status: 'closed',
      by: 'owner',
      now: this.deps.clock.now(),
    });
    await this.projected(position);
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
    const { position } = await this.run(ticketId, { type: 'AssignTicket', assigneeId: adminId });
    return this.afterStaffChange(ticketId, position);
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
    const { position } = await this.run(ticketId, {
      type: 'ChangeTicketStatus',
      status,
      by: 'staff',
      now: this.deps.clock.now(),
    });
    return this.afterStaffChange(ticketId, position);
  }

  private async post(
    ticketId: string,
    ownerId: string,
    message: string,
    author: TicketAuthor,
  ): Promise<TicketMessage> {
    const messageId = this.deps.ids.newId();
    const { position } = await this.run(ticketId, {
      type: 'PostMessage',
      messageId,
      message: await this.deps.keyring.encrypt(ownerId, message),
      author,
    });
    await this.projected(position);
    return {
      id: messageId,
      message,
      isFromAdmin: author.role === 'staff',
      createdAt: this.deps.clock.now().toISOString(),
    };
  }

  private run(ticketId: string, command: TicketCommand) {
    return this.perTicket.run(ticketId, () =>
      handleCommand(this.deps.eventStore, ticketStreamId(ticketId), ticketDecider, command, this.stamped),
    );
  }

  /** The ticket's owner by its stream (the authority): anyone else, or no such ticket, is a 404. */
  private async ownerOf(ticketId: string, userId: string): Promise<TicketState> {
    if (!isTicketId(ticketId)) throw notFound();
    const state = await loadState(this.deps.eventStore, ticketStreamId(ticketId), ticketDecider);
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

  private async afterStaffChange(ticketId: string, position: LogPosition | null): Promise<AdminTicket> {
    await this.projected(position);
    const ticket = await supportTicket(this.deps.db, ticketId);
    if (!ticket) throw notFound();
    return ticket;
  }

  /** Read-your-writes: the answer goes once the support read model shows the change (bounded wait). */
  private async projected(position: LogPosition | null): Promise<void> {
    if (position) await this.deps.readModels.waitFor(SUPPORT_PROJECTION, position);
  }
}
