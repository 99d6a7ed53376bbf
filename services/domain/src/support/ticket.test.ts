import type { TicketEvent } from '@sniplink/contracts';
import { specFor } from '@sniplink/test-support/decider-spec';
import { describe, it } from 'vitest';
import { type TicketCommand, ticketDecider } from './ticket';

const given = specFor(ticketDecider);

const TICKET = '01890000-0000-7000-8000-0000000000a1';
const OWNER = '01890000-0000-7000-8000-0000000000b1';
const ADMIN = '01890000-0000-7000-8000-0000000000c1';
const MESSAGE = '01890000-0000-7000-8000-0000000000d1';
const NOW = new Date('2026-03-01T10:00:00.000Z');

const opened: TicketEvent = {
  type: 'TicketOpened',
  data: {
    ticketId: TICKET,
    userId: OWNER,
    subject: 'enc:v1:subject',
    messageId: MESSAGE,
    message: 'enc:v1:first',
    priority: 'medium',
  },
};
const status = (
  to: 'open' | 'in_progress' | 'resolved' | 'closed',
  by: 'owner' | 'staff' | 'system',
  autoCloseAfter: string | null = null,
): TicketEvent => ({ type: 'TicketStatusChanged', data: { status: to, by, autoCloseAfter } });
const assigned: TicketEvent = { type: 'TicketAssigned', data: { assigneeId: ADMIN } };
const resolved = status('resolved', 'staff', '2026-03-08T10:00:00.000Z');
const closed = status('closed', 'owner');

const post = (role: 'owner' | 'staff'): TicketCommand => ({
  type: 'PostMessage',
  messageId: MESSAGE,
  message: 'enc:v1:reply',
  author: { role, userId: role === 'owner' ? OWNER : ADMIN },
});
const posted = (fromStaff: boolean): TicketEvent => ({
  type: 'TicketMessagePosted',
  data: { messageId: MESSAGE, message: 'enc:v1:reply', fromStaff, authorId: fromStaff ? ADMIN : OWNER },
});

describe('a support ticket', () => {
  it('opens once', () => {
    const { ticketId, userId, subject, messageId, message, priority } = opened.data;
    const open: TicketCommand = {
      type: 'OpenTicket',
      ticketId,
      userId,
      subject,
      messageId,
      message,
      priority,
    };
    given([]).when(open).then([opened]);
    given([opened]).when(open).thenThrows({ status: 409 });
  });

  it('is in progress once an admin assigns it, and assigning the same admin again changes nothing', () => {
    given([opened])
      .when({ type: 'AssignTicket', assigneeId: ADMIN })
      .then([assigned, status('in_progress', 'staff')]);
    given([opened, assigned, status('in_progress', 'staff')])
      .when({ type: 'AssignTicket', assigneeId: ADMIN })
      .then([]);
  });

  it('is in progress once staff reply to it; the owner writing keeps it open', () => {
    given([opened])
      .when(post('staff'))
      .then([posted(true), status('in_progress', 'staff')]);
    given([opened])
      .when(post('owner'))
      .then([posted(false)]);
  });

  it('resolved by staff, closes by itself 7 days later, not a moment before', () => {
    given([opened])
      .when({ type: 'ChangeTicketStatus', status: 'resolved', by: 'staff', now: NOW })
      .then([resolved]);
    given([opened, resolved])
      .when({ type: 'AutoCloseTicket', now: new Date('2026-03-08T09:59:59.999Z') })
      .then([]);
    given([opened, resolved])
      .when({ type: 'AutoCloseTicket', now: new Date('2026-03-08T10:00:00.000Z') })
      .then([status('closed', 'system')]);
  });

  it('reopens when its owner answers once resolved: in progress if assigned, else open; the sweep then leaves it', () => {
    given([opened, resolved])
      .when(post('owner'))
      .then([posted(false), status('open', 'owner')]);
    given([opened, assigned, resolved])
      .when(post('owner'))
      .then([posted(false), status('in_progress', 'owner')]);
    given([opened, resolved, status('open', 'owner')])
      .when({ type: 'AutoCloseTicket', now: new Date('2026-04-01T00:00:00.000Z') })
      .then([]);
  });

  it('refuses every message, assignment and reopening once closed (409), closing again changes nothing', () => {
    given([opened, closed]).when(post('owner')).thenThrows({ status: 409, code: 'TICKET_CLOSED' });
    given([opened, closed]).when(post('staff')).thenThrows({ status: 409, code: 'TICKET_CLOSED' });
    given([opened, closed]).when({ type: 'AssignTicket', assigneeId: ADMIN }).thenThrows({ status: 409 });
    given([opened, closed])
      .when({ type: 'ChangeTicketStatus', status: 'resolved', by: 'staff', now: NOW })
      .thenThrows({ status: 409 });
    given([opened, closed])
      .when({ type: 'ChangeTicketStatus', status: 'closed', by: 'owner', now: NOW })
      .then([]);
  });

  it('is not found before it is opened', () => {
    given([]).when(post('owner')).thenThrows({ status: 404 });
  });
});
