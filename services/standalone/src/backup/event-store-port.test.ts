import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eventRegistry } from '@sniplink/contracts';
import { InMemoryEventStore, type RecordedEvent } from '@sniplink/platform';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../features';
import { writeBackup } from './backup';
import type { Progress } from './format';
import { restoreBackup } from './restore';

// KurrentDB cannot run on every machine the suite runs on: its path (events read and appended through
// the store's own port, stream by stream) runs here between the PostgreSQL store, read as KurrentDB
// is, and the in-memory store, appended to as KurrentDB is.
const quiet: Progress = { start() {}, advance() {}, note() {}, stop() {} };

const comparable = (events: RecordedEvent[]) =>
  events.map(({ globalPosition: _, ...event }) => ({ ...event, revision: event.revision.toString() }));

describe('backup and restore through the event store port (the KurrentDB path)', () => {
  let source: TestStack;
  let target: TestDatabase;
  let workDir: string;
  beforeAll(async () => {
    source = await createTestStack();
    target = await createTestDatabase({ migrate: false });
    workDir = await mkdtemp(path.join(os.tmpdir(), 'sniplink-port-backup-'));
    // Three streams written in turns, so that the log interleaves them and appends carry 1 or 2 events.
    for (let round = 0; round < 4; round++) {
      for (const stream of ['a', 'b', 'c']) {
        const events = Array.from({ length: stream === 'b' ? 2 : 1 }, () => ({
          id: uuidv7(),
          type: 'EmailReleased',
          data: { userId: uuidv7() },
          correlationId: uuidv7(),
          actorId: 'operator',
          metadata: { channel: 'operator' },
          occurredAt: new Date(Date.UTC(2026, 10, 28, 12, round)),
        }));
        await source.eventStore.appendToStream(`note-${stream}`, events, 'any');
      }
    }
  });
  afterAll(async () => {
    await source?.cleanup();
    await target?.drop();
    await rm(workDir, { recursive: true, force: true });
  });

  it('keeps every event with its stream, revision, ids, metadata and time, in the log order', async () => {
    const file = path.join(workDir, 'port.backup');
    const written = await writeBackup(
      {
        pool: source.database.pool,
        eventStore: source.eventStore,
        eventStoreKind: 'eventstoredb',
        clickStreamKind: 'postgres',
        registry: eventRegistry,
        derivedTables: new Set(),
      },
      file,
      quiet,
    );
    expect(written.events).toBe(16);
    const restored = new InMemoryEventStore(eventRegistry);
    const summary = await restoreBackup(
      {
        pool: target.pool,
        db: target.db,
        eventStore: restored,
        registry: eventRegistry,
        migrations,
        describe: 'the test database',
      },
      file,
      quiet,
    );
    expect(summary.events).toBe(16);
    const original = (await source.eventStore.readAll({ maxCount: 100 })).events;
    expect(comparable((await restored.readAll({ maxCount: 100 })).events)).toEqual(comparable(original));
    expect(original.map((event) => event.streamId).slice(0, 4)).toEqual([
      'note-a',
      'note-b',
      'note-b',
      'note-c',
    ]);
  });
});
