import {
  type Encrypted,
  TICKET_AUTO_CLOSE_DAYS,
  type TicketEvent,
  type TicketPriority,
  type TicketStatus,
  ticketEvents,
} from '@sniplink/contracts';
import { deciderOf, exhaustive } from '../decider';
import { ConflictError, NotFoundError } from '../errors';

/** A ticket's stream `ticket-{ticketId}`, folded. */
export interface TicketState {
  status: 'none' | TicketStatus;
  ownerId: string | null;
  assigneeId: string | null;
  /** While resolved: from when the auto-close sweep may close it. */
  autoCloseAfter: Date | null;
}

/** Who acts on a ticket: its owner, or staff (an admin in the console). */
export type TicketAuthor = { role: 'owner' | 'staff'; userId: string };

/**
 * The ticket's commands. Texts arrive encrypted under the owner's key (the service encrypts, the API has
 * checked their length); time comes in with the command that needs it.
 */
export type TicketCommand =
  | {
      type: 'OpenTicket';
      ticketId: string;
      userId: string;
      subject: Encrypted;
      messageId: string;
      message: Encrypted;
      priority: TicketPriority;
    }
  | { type: 'PostMessage'; messageId: string; message: Encrypted; author: TicketAuthor }
  | { type: 'AssignTicket'; assigneeId: string }
  | { type: 'ChangeTicketStatus'; status: 'resolved' | 'closed'; by: 'owner' | 'staff'; now: Date }
  /** The sweep: closes a ticket resolved long enough ago; anything else (reopened, closed) is left alone. */
  | { type: 'AutoCloseTicket'; now: Date };

const DAY_MS = 24 * 60 * 60_000;

const initialState = (): TicketState => ({
  status: 'none',
  ownerId: null,
  assigneeId: null,
  autoCloseAfter: null,
});

function evolve(state: TicketState, event: TicketEvent): TicketState {
  switch (event.type) {
    case 'TicketOpened':
      return { ...state, status: 'open', ownerId: event.data.userId };
    case 'TicketMessagePosted':
      return state;
    case 'TicketAssigned':
      return { ...state, assigneeId: event.data.assigneeId };
    case 'TicketStatusChanged': {
      const { status, autoCloseAfter } = event.data;
      return { ...state, status, autoCloseAfter: autoCloseAfter ? new Date(autoCloseAfter) : null };
    }
    default:
      return exhaustive(event);
  }
}

const closedError = () =>
  new ConflictError('TICKET_CLOSED', 'This ticket is closed: nothing more can be posted to it');

function statusChange(
  status: TicketStatus,
  by: 'owner' | 'staff' | 'system',
  autoCloseAfter: Date | null = null,
): TicketEvent {
  return {
    type: 'TicketStatusChanged',
    data: { status, by, autoCloseAfter: autoCloseAfter?.toISOString() ?? null },
  };
}

function decide(command: TicketCommand, state: TicketState): TicketEvent[] {
  if (command.type === 'OpenTicket') {
    if (state.status !== 'none') throw new ConflictError('CONFLICT', 'This ticket already exists');
    const { ticketId, userId, subject, messageId, message, priority } = command;
    return [{ type: 'TicketOpened', data: { ticketId, userId, subject, messageId, message, priority } }];
  }
  if (state.status === 'none') throw new NotFoundError('No such ticket');
  switch (command.type) {
    case 'PostMessage':
      return postMessage(command, state);
    case 'AssignTicket': {
      if (state.status === 'closed') throw closedError();
      const assigned: TicketEvent = { type: 'TicketAssigned', data: { assigneeId: command.assigneeId } };
      const events = state.assigneeId === command.assigneeId ? [] : [assigned];
      // Taken up by staff: an open ticket is in progress from now on.
      return state.status === 'open' ? [...events, statusChange('in_progress', 'staff')] : events;
    }
    case 'ChangeTicketStatus': {
      if (state.status === command.status) return [];
      if (state.status === 'closed') throw closedError();
      const autoCloseAfter =
        command.status === 'resolved'
          ? new Date(command.now.getTime() + TICKET_AUTO_CLOSE_DAYS * DAY_MS)
          : null;
      return [statusChange(command.status, command.by, autoCloseAfter)];
    }
    case 'AutoCloseTicket': {
      const due = state.status === 'resolved' && state.autoCloseAfter && state.autoCloseAfter <= command.now;
      return due ? [statusChange('closed', 'system')] : [];
    }
    default:
      return exhaustive(command);
  }
}

/**
 * A message joins the conversation unless the ticket is closed. Staff answering an open ticket take it
 * up (in progress); the owner answering a resolved one reopens it: in progress if someone is assigned
 * (they pick it up again), open otherwise.
 */
function postMessage(command: Extract<TicketCommand, { type: 'PostMessage' }>, state: TicketState) {
  if (state.status === 'closed') throw closedError();
  const { messageId, message, author } = command;
  const fromStaff = author.role === 'staff';
  const posted: TicketEvent = {
    type: 'TicketMessagePosted',
    data: { messageId, message, fromStaff, authorId: author.userId },
  };
  if (fromStaff && state.status === 'open') return [posted, statusChange('in_progress', 'staff')];
  if (!fromStaff && state.status === 'resolved')
    return [posted, statusChange(state.assigneeId ? 'in_progress' : 'open', 'owner')];
  return [posted];
}

export const ticketDecider = deciderOf(ticketEvents, { initialState, evolve, decide });
