import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdCommitsOf, installCommitHold } from '../../../../test/support/commit-hold';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database';
import { PgNotifications } from '../db/notifications';
import { anEvent, collect, eventStoreContract, newStream, readEverything } from './event-store.contract';
import { PostgresEventStore } from './postgres';

let database: TestDatabase;
let notifications: PgNotifications;
beforeAll(async () => {
  database = await createTestDatabase();
  notifications = new PgNotifications({ connectionString: database.connectionString });
  await installCommitHold(database.pool, { table: 'es_events', column: 'stream_id' });
});
afterAll(async () => {
  await notifications?.close();
  await database?.drop();
});
const postgresStore = () => new PostgresEventStore({ pool: database.pool, notifications });

eventStoreContract('postgres', async () => ({ store: postgresStore(), cleanup: async () => {} }));

// Not in the shared contract: only a store whose commits can interleave can commit an append late.
describe('PostgreSQL event store: an append that commits after later ones', () => {
  it('is never skipped by a reader, polling or subscribed', async () => {
    const store = postgresStore();
    const before = await store.headPosition();
    const subscription = store.subscribeToAll({ after: before });
    const heldStream = newStream('held');
    const hold = await holdCommitsOf(database.connectionString, heldStream);
    const late = store.appendToStream(heldStream, [anEvent('Late')], 'no_stream');
    await hold.untilBlocked();
    const laterStreams = [newStream(), newStream(), newStream()];
    for (const stream of laterStreams) await store.appendToStream(stream, [anEvent('Early')], 'no_stream');
    // A polling reader checkpoints whatever it can see while the late append is still open...
    const seenWhileHeld = await store.readAll({ after: before });
    await hold.release();
    await late;
    // ...and, continuing from that checkpoint, still finds the late event.
    const seenAfter = await readEverything(store, seenWhileHeld.next);
    const polled = [...seenWhileHeld.events, ...seenAfter].map((e) => e.streamId);
    expect(polled.sort()).toEqual([heldStream, ...laterStreams].sort());
    const streamed = await collect(subscription, 4);
    await subscription.close();
    expect(streamed.map((e) => e.streamId).sort()).toEqual([heldStream, ...laterStreams].sort());
  });
});

describe('PostgreSQL event store: append listeners in other processes', () => {
  it('tells a listener on its own connection (another process) of an append, through NOTIFY', async () => {
    const elsewhere = new PgNotifications({ connectionString: database.connectionString });
    try {
      const listening = new PostgresEventStore({ pool: database.pool, notifications: elsewhere });
      let heard = 0;
      await listening.onAppended(() => heard++);
      await postgresStore().appendToStream(newStream(), [anEvent()], 'no_stream');
      await expect.poll(() => heard, { timeout: 10_000 }).toBeGreaterThan(0);
    } finally {
      await elsewhere.close();
    }
  });
});
