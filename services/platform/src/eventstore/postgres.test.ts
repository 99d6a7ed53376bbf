import { eventRegistry, UnreadableEventError } from '@sniplink/contracts';
import { holdCommitsOf, installCommitHold } from '@sniplink/test-support/commit-hold';
import { testDatabaseWithNotifications } from '@sniplink/test-support/database';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { PgNotifications } from '../db/notifications';
import {
  anEvent,
  collect,
  contractRegistry,
  eventStoreContract,
  newStream,
  readEverything,
} from './event-store.contract';
import { PostgresEventStore } from './postgres';

const testDb = testDatabaseWithNotifications();
beforeAll(async () => {
  await installCommitHold(testDb().database.pool, { table: 'es_events', column: 'stream_id' });
});
const postgresStore = (registry = contractRegistry) =>
  new PostgresEventStore({ pool: testDb().database.pool, notifications: testDb().notifications, registry });

eventStoreContract('postgres', async (registry) => ({
  store: postgresStore(registry),
  cleanup: async () => {},
}));

// Not in the shared contract: only a store whose commits can interleave can commit an append late.
describe('PostgreSQL event store: an append that commits after later ones', () => {
  it('is never skipped by a reader, polling or subscribed', async () => {
    const store = postgresStore();
    const before = await store.headPosition();
    const subscription = store.subscribeToAll({ after: before });
    const heldStream = newStream('held');
    const hold = await holdCommitsOf(testDb().database.connectionString, heldStream);
    const late = store.appendToStream(heldStream, [anEvent('Late')], 'no_stream');
    await hold.untilBlocked();
    const laterStreams = [newStream(), newStream(), newStream()];
    for (const stream of laterStreams) await store.appendToStream(stream, [anEvent('Early')], 'no_stream');
    // A polling reader checkpoints whatever it can see while the late append is still open...
    const seenWhileHeld = await store.readAll({ after: before });
    await hold.release();
    await late;
    // ...and, continuing from that checkpoint, still finds the late event.
    const seenAfter = await readEverything(store, seenWhileHeld.next, 4 - seenWhileHeld.events.length);
    const polled = [...seenWhileHeld.events, ...seenAfter].map((e) => e.streamId);
    expect(polled.sort()).toEqual([heldStream, ...laterStreams].sort());
    const streamed = await collect(subscription, 4);
    await subscription.close();
    expect(streamed.map((e) => e.streamId).sort()).toEqual([heldStream, ...laterStreams].sort());
  });
});

describe('PostgreSQL event store: events stored in an older shape', () => {
  const linkId = '0193a1b2-0000-7000-8000-0000000000aa';
  /** A row as the adapter stored `ShortCodeReleased` before version 2: no reason, no schema version. */
  async function storeRawV1(stream: string, data: Record<string, unknown>): Promise<string> {
    const eventId = uuidv7();
    await testDb().database.pool.query(
      `WITH stream AS (INSERT INTO es_streams (stream_id, revision) VALUES ($1, 0))
       INSERT INTO es_events (event_id, stream_id, revision, type, data, metadata, actor_id, occurred_at)
       VALUES ($2, $1, 0, 'ShortCodeReleased', $3, '{}', NULL, '2026-11-01T08:00:00Z')`,
      [stream, eventId, JSON.stringify(data)],
    );
    return eventId;
  }

  it('reads a version 1 row back in its current shape, through a stream and the global log', async () => {
    const store = postgresStore(eventRegistry);
    const before = await store.headPosition();
    const stream = newStream('shortcode-v1');
    const eventId = await storeRawV1(stream, { linkId });
    const current = { linkId, reason: 'abandoned' };
    expect(await store.readStream(stream)).toMatchObject([
      { id: eventId, type: 'ShortCodeReleased', schemaVersion: 1, data: current, correlationId: null },
    ]);
    const [fromLog] = await readEverything(store, before);
    expect(fromLog).toMatchObject({ id: eventId, data: current });
    const kept = newStream('shortcode-v1');
    await storeRawV1(kept, { linkId, reason: 'never-clicked' });
    expect((await store.readStream(kept))[0]?.data).toEqual({ linkId, reason: 'never-clicked' });
  });

  it('stores new events at their current version', async () => {
    const store = postgresStore(eventRegistry);
    const stream = newStream('shortcode-v2');
    const released = anEvent('ShortCodeReleased', { linkId, reason: 'never-clicked' });
    await store.appendToStream(stream, [released], 'no_stream');
    const { rows } = await testDb().database.pool.query(
      'SELECT schema_version FROM es_events WHERE event_id = $1',
      [released.id],
    );
    expect(rows).toEqual([{ schema_version: 2 }]);
  });

  it('refuses to read a version newer than this code knows, rather than guess', async () => {
    const store = postgresStore(eventRegistry);
    const stream = newStream('shortcode-v9');
    const eventId = await storeRawV1(stream, { linkId, reason: 'abandoned' });
    await testDb().database.pool.query('UPDATE es_events SET schema_version = 9 WHERE event_id = $1', [
      eventId,
    ]);
    const read = store.readStream(stream);
    await expect(read).rejects.toBeInstanceOf(UnreadableEventError);
    await expect(read).rejects.toThrow(
      'ShortCodeReleased (version 9) cannot be read: this code knows versions 1 to 2',
    );
  });
});

describe('PostgreSQL event store: append listeners in other processes', () => {
  it('tells a listener on its own connection (another process) of an append, through NOTIFY', async () => {
    const elsewhere = new PgNotifications({ connectionString: testDb().database.connectionString });
    try {
      const listening = new PostgresEventStore({
        pool: testDb().database.pool,
        notifications: elsewhere,
        registry: eventRegistry,
      });
      let heard = 0;
      await listening.onAppended(() => heard++);
      await postgresStore().appendToStream(newStream(), [anEvent()], 'no_stream');
      await expect.poll(() => heard, { timeout: 10_000 }).toBeGreaterThan(0);
    } finally {
      await elsewhere.close();
    }
  });
});
