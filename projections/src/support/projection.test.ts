import { Keyring } from '@sniplink/platform';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withReadModels } from '../read-models';
import { appendHistory, applyInBatches as applyFromLog, snapshot } from '../testing/fixtures';
import { supportProjection } from './projection';
import { supportTicketsPage, ticketCounts, ticketMessages, ticketsDueToClose, ticketsOf } from './queries';

const ADA = '01890000-0000-7000-8000-00000000000a';
const BOB = '01890000-0000-7000-8000-00000000000b';
const STAFF = '01890000-0000-7000-8000-00000000000c';
const ADAS = '01890000-0000-7000-8000-0000000000a1';
const ADAS_URGENT = '01890000-0000-7000-8000-0000000000a2';
const BOBS = '01890000-0000-7000-8000-0000000000b1';

describe('support projection', () => {
  let stack: TestStack;
  let keyring: Keyring;
  beforeAll(async () => {
    stack = await createTestStack();
    keyring = new Keyring(stack.database.db);
    const opened = async (ticketId: string, userId: string, subject: string, priority: string) => ({
      type: 'TicketOpened',
      data: {
        ticketId,
        userId,
        subject: await keyring.encrypt(userId, subject),
        messageId: uuidv7(),
        message: await keyring.encrypt(userId, `${subject}: details`),
        priority,
      },
    });
    const posted = async (ownerId: string, text: string, fromStaff: boolean) => ({
      type: 'TicketMessagePosted',
      data: {
        messageId: uuidv7(),
        message: await keyring.encrypt(ownerId, text),
        fromStaff,
        authorId: fromStaff ? STAFF : ownerId,
      },
    });
    const history: Array<[string, Array<{ type: string; data: unknown }>]> = [
      [
        `ticket-${ADAS}`,
        [
          await opened(ADAS, ADA, 'Broken link', 'medium'),
          { type: 'TicketAssigned', data: { assigneeId: STAFF } },
          { type: 'TicketStatusChanged', data: { status: 'in_progress', by: 'staff', autoCloseAfter: null } },
          await posted(ADA, 'Fixed?', true),
          {
            type: 'TicketStatusChanged',
            data: { status: 'resolved', by: 'staff', autoCloseAfter: '2027-01-08T00:00:04.000Z' },
          },
        ],
      ],
      [`ticket-${ADAS_URGENT}`, [await opened(ADAS_URGENT, ADA, 'Down', 'urgent')]],
      [`ticket-${BOBS}`, [await opened(BOBS, BOB, 'Bob asks', 'low'), await posted(BOB, 'Hello?', false)]],
      [`user-${BOB}`, [{ type: 'UserErased', data: {} }]],
    ];
    await appendHistory(stack.eventStore, history);
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    const { db } = stack.database;
    await applyFromLog(db, stack.eventStore, supportProjection(keyring), { batchSize, times });
    return [
      await snapshot(db, 'rm_support_tickets', 'ticket_id'),
      await snapshot(db, 'rm_support_messages', 'message_id'),
    ];
  };

  it('gives the same rows when every event is delivered twice, whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(50, 2)).toEqual(once);
    expect(await applyInBatches(1, 2)).toEqual(once);
  });

  it('holds the texts decrypted, the status as its last event left it; an erased owner’s tickets are gone', async () => {
    await applyInBatches(50, 1);
    const { db } = stack.database;
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
    await applyInBatches(50, 1);
    expect(await ticketsOf(stack.database.db, ADA)).toEqual([]);
    expect(await snapshot(stack.database.db, 'rm_support_messages', 'message_id')).toEqual([]);
  });
});
