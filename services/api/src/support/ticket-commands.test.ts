import { handlerSpec } from '@sniplink/test-support/command-spec';
import { events, specIds } from '@sniplink/test-support/events';
import { describe, it } from 'vitest';
import { ticketCommands } from './support-service';

const spec = handlerSpec(ticketCommands);
const { ticket: TICKET, owner: OWNER, admin: ADMIN, message: FIRST_MESSAGE } = specIds;
const NOW = new Date('2026-03-01T10:00:00.000Z');
const REPLY = '01890000-0000-7000-8000-00000000b003';

/** The ticket as its owner opens it, and as its stream records it. */
const ticket = {
  ticketId: TICKET,
  userId: OWNER,
  subject: 'enc:v1:subject',
  messageId: FIRST_MESSAGE,
  message: 'enc:v1:message',
  priority: 'medium',
} as const;
const opened = events.ticketOpened(ticket);
/** A reply to the ticket: the command that posts it, and the message its stream records. */
const reply = (role: 'owner' | 'staff', userId: string, message: string) => ({
  post: { type: 'PostMessage', messageId: REPLY, message, author: { role, userId } } as const,
  posted: events.ticketMessagePosted({
    messageId: REPLY,
    message,
    fromStaff: role === 'staff',
    authorId: userId,
  }),
});
const ownerReply = reply('owner', OWNER, 'enc:v1:again');
const staffReply = reply('staff', ADMIN, 'enc:v1:answer');
const resolved = events.ticketStatusChanged({
  status: 'resolved',
  by: 'staff',
  autoCloseAfter: '2026-03-08T10:00:00.000Z',
});

describe("a ticket's lifecycle, through the support pipeline on the in-memory store", () => {
  it('opens a ticket on its own stream', async () => {
    await spec
      .given(TICKET)
      .when({ type: 'OpenTicket', ...ticket })
      .then(opened);
  });

  it('a staff reply to an open ticket takes it up: in progress', async () => {
    await spec
      .given(TICKET, opened)
      .when(staffReply.post)
      .then(staffReply.posted, events.ticketStatusChanged({ status: 'in_progress', by: 'staff' }));
  });

  it('resolving it sets the instant it closes by itself, 7 days later', async () => {
    await spec
      .given(TICKET, opened, staffReply.posted)
      .when({ type: 'ChangeTicketStatus', status: 'resolved', by: 'staff', now: NOW })
      .then(resolved);
  });

  it('the owner writing to a resolved ticket reopens it (open: nobody is assigned)', async () => {
    await spec
      .given(TICKET, opened, resolved)
      .when(ownerReply.post)
      .then(ownerReply.posted, events.ticketStatusChanged({ status: 'open', by: 'owner' }));
  });

  it('the owner closes it, and a closed ticket takes no more messages (409)', async () => {
    await spec
      .given(TICKET, opened, resolved)
      .when({ type: 'ChangeTicketStatus', status: 'closed', by: 'owner', now: NOW })
      .then(events.ticketStatusChanged({ status: 'closed', by: 'owner' }));
    await spec
      .given(TICKET, opened, events.ticketStatusChanged({ status: 'closed', by: 'owner' }))
      .when(ownerReply.post)
      .thenFails({ code: 'TICKET_CLOSED', status: 409 });
  });

  it('a malformed ticket id is a 404 before any stream is read', async () => {
    await spec
      .given('not-a-ticket')
      .when({ type: 'AssignTicket', assigneeId: ADMIN })
      .thenFails({ status: 404 });
  });
});
