import type { TicketPriority } from '@sniplink/contracts';
import { Keyring } from '@sniplink/platform';
import { events, type GivenEvent, onStream } from '@sniplink/test-support/events';
import { projectionSpec } from '@sniplink/test-support/projection-spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { supportProjection } from './projection';
import { supportTicketsPage, ticketCounts, ticketMessages, ticketsDueToClose, ticketsOf } from './queries';

const ADA = '01890000-0000-7000-8000-00000000000a';
const BOB = '01890000-0000-7000-8000-00000000000b';
const STAFF = '01890000-0000-7000-8000-00000000000c';
const ADAS = '01890000-0000-7000-8000-0000000000a1';
const ADAS_URGENT = '01890000-0000-7000-8000-0000000000a2';
const BOBS = '01890000-0000-7000-8000-0000000000b1';

describe('support projection', () => {
  let keyring: Keyring;
  const spec = projectionSpec(() => supportProjection(keyring));
  let history: GivenEvent[];
  beforeAll(async () => {
    keyring = new Keyring(spec.db);
    const opened = async (ticketId: string, userId: string, subject: string, priority: TicketPriority) =>
      events.ticketOpened({
        ticketId,
        userId,
        subject: await keyring.encrypt(userId, subject),
        message: await keyring.encrypt(userId, `${subject}: details`),
        priority,
      });
    const posted = async (ownerId: string, text: string, fromStaff: boolean) =>
      events.ticketMessagePosted({
        message: await keyring.encrypt(ownerId, text),
        fromStaff,
        authorId: fromStaff ? STAFF : ownerId,
      });
    history = [
      ...onStream(
        `ticket-${ADAS}`,
        await opened(ADAS, ADA, 'Broken link', 'medium'),
        events.ticketAssigned({ assigneeId: STAFF }),
        events.ticketStatusChanged({ status: 'in_progress', by: 'staff', autoCloseAfter: null }),
        await posted(ADA, 'Fixed?', true),
        events.ticketStatusChanged({
          status: 'resolved',
          by: 'staff',
          autoCloseAfter: '2027-01-08T00:00:04.000Z',
        }),
      ),
      ...onStream(`ticket-${ADAS_URGENT}`, await opened(ADAS_URGENT, ADA, 'Down', 'urgent')),
      ...onStream(
        `ticket-${BOBS}`,
        await opened(BOBS, BOB, 'Bob asks', 'low'),
        await posted(BOB, 'Hello?', false),
      ),
      ...onStream(`user-${BOB}`, events.userErased()),
    ];
    await spec.given(history);
  });

  it('holds the texts decrypted, the status as its last event left it; an erased owner’s tickets are gone', async () => {
    const { db } = spec;
    const adas = await ticketsOf(db, ADA);
    expect(adas.map(({ id, subject, status }) => ({ id, subject, status }))).toEqual([
      { id: ADAS_URGENT, subject: 'Down', status: 'open' },
      { id: ADAS, subject: 'Broken link', status: 'resolved' },
    ]);
    expect((await ticketMessages(db, ADAS)).map((m) => [m.message, m.isFromAdmin])).toEqual([
      ['Broken link: details', false],
      ['Fixed?', true],
    ]);
    expect(await ticketsOf(db, BOB)).toEqual([]);
    expect(await ticketMessages(db, BOBS)).toEqual([]);
    expect(await ticketCounts(db)).toEqual({ open: 1, in_progress: 0, resolved: 1, closed: 0 });
    const page = await supportTicketsPage(db, { page: 1 });
    expect(page.tickets.map((t) => [t.id, t.assignedTo])).toEqual([
      [ADAS_URGENT, null],
      [ADAS, STAFF],
    ]);
    expect(await ticketsDueToClose(db, new Date('2027-01-08T00:00:03.000Z'), 10)).toEqual([]);
    expect(await ticketsDueToClose(db, new Date('2027-01-08T00:00:04.000Z'), 10)).toEqual([ADAS]);
  });

  it('writes nothing for a ticket whose owner’s key was shredded (a rebuild after erasure)', async () => {
    await keyring.shred(ADA);
    await spec.given(history);
    expect(await ticketsOf(spec.db, ADA)).toEqual([]);
    expect(await spec.readModels.selectFrom('rm_support_messages').selectAll().execute()).toEqual([]);
  });
});
