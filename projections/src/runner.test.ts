import { setTimeout as sleep } from 'node:timers/promises';
import { eventRegistry } from '@sniplink/contracts';
import { createLogger, InMemoryEventStore, PgAdvisoryLocks, START } from '@sniplink/platform';
import { createTestDatabase } from '@sniplink/test-support/database';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { until } from '@sniplink/test-support/until';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyNextBatch } from './batch';
import { CheckpointMovedError, loadCheckpoint } from './checkpoints';
import { withReadModels } from './read-models';
import { ProjectionBusyError, rebuildProjections } from './rebuild';
import { ProjectionRunner, type RunnerDeps } from './runner';
import { streamCatalogue } from './stream-catalogue/projection';
import { snapshot } from './testing/fixtures';

/** An event only the stream catalogue reads (the store takes declared events only). */
const event = () => ({
  id: uuidv7(),
  type: 'EmailReleased',
  data: { userId: uuidv7() },
  occurredAt: new Date(),
});

describe('projection runner', () => {
  let stack: TestStack;
  let deps: RunnerDeps;
  const runners: ProjectionRunner[] = [];
  const runner = () => {
    const created = new ProjectionRunner(deps, streamCatalogue, { standbyRetryMs: 50, batchSize: 50 });
    runners.push(created);
    created.start();
    return created;
  };
  beforeAll(async () => {
    stack = await createTestStack();
    deps = {
      db: stack.database.db,
      eventStore: stack.eventStore,
      locks: new PgAdvisoryLocks({ pool: stack.database.pool }),
      log: stack.log,
    };
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await stack.cleanup();
  });

  it('follows the log live: an append is in the read model soon after, and a waiter is told', async () => {
    const live = runner();
    const { position } = await stack.eventStore.appendToStream('link-live', [event(), event()], 'no_stream');
    expect(await live.waitUntilPast(position, 5_000)).toBe(true);
    const row = await withReadModels(stack.database.db)
      .selectFrom('rm_streams')
      .selectAll()
      .where('stream_id', '=', 'link-live')
      .executeTakeFirst();
    expect(row?.event_count).toBe('2');
    await live.stop();
  });

  it('runs one runner per projection at a time; a standby takes over when the active one stops', async () => {
    const [first, second] = [runner(), runner()];
    await sleep(300);
    const states = [first.status().state, second.status().state].sort();
    expect(states).toEqual(['active', 'standby']);
    const [active, standby] = first.status().state === 'active' ? [first, second] : [second, first];
    await active.stop();
    const { position } = await stack.eventStore.appendToStream('link-takeover', [event()], 'no_stream');
    expect(await standby.waitUntilPast(position, 5_000)).toBe(true);
    expect(standby.status().state).toBe('active');
    await standby.stop();
  });

  it('refuses a batch whose checkpoint another runner moved, and leaves the read model untouched', async () => {
    const checkpoint = await loadCheckpoint(stack.database.db, streamCatalogue);
    await stack.eventStore.appendToStream('link-cas', [event()], 'no_stream');
    // In the log once every older transaction on the server has ended (another database's too).
    await until(
      () => stack.eventStore.readAll({ after: checkpoint }),
      (page) => page.events.length > 0,
    );
    const before = await snapshot(stack.database.db, 'rm_streams', 'stream_id');
    await expect(applyNextBatch(deps, streamCatalogue, START, 10)).rejects.toBeInstanceOf(
      CheckpointMovedError,
    );
    expect(await snapshot(stack.database.db, 'rm_streams', 'stream_id')).toEqual(before);
    const applied = await applyNextBatch(deps, streamCatalogue, checkpoint, 10);
    expect(applied.applied).toBe(1);
  });

  it('rebuilds from the start to the same rows, but not while a runner is active', async () => {
    const live = runner();
    const { position } = await stack.eventStore.appendToStream(
      'user-rebuild',
      [event(), event(), event()],
      'no_stream',
    );
    expect(await live.waitUntilPast(position, 5_000)).toBe(true);
    const liveRows = await snapshot(stack.database.db, 'rm_streams', 'stream_id');
    await expect(rebuildProjections(deps, [streamCatalogue])).rejects.toBeInstanceOf(ProjectionBusyError);
    await live.stop();
    const [result] = await rebuildProjections(deps, [streamCatalogue]);
    expect(result?.events).toBe(7);
    expect(await snapshot(stack.database.db, 'rm_streams', 'stream_id')).toEqual(liveRows);
  });

  it('starts over from an empty read model when the projection version changes', async () => {
    await withReadModels(stack.database.db).updateTable('rm_streams').set({ category: 'stale' }).execute();
    const bumped = { ...streamCatalogue, version: streamCatalogue.version + 1 };
    const next = new ProjectionRunner(deps, bumped, { standbyRetryMs: 50 });
    runners.push(next);
    next.start();
    expect(await next.waitUntilPast(await stack.eventStore.headPosition(), 5_000)).toBe(true);
    const categories = await withReadModels(stack.database.db)
      .selectFrom('rm_streams')
      .select('category')
      .distinct()
      .execute();
    expect(categories.map((c) => c.category).sort()).toEqual(['link', 'user']);
  });
});

describe('projection runner on the in-memory event store', () => {
  it('is woken by an append through the store itself: no PostgreSQL NOTIFY, and long before its idle poll', async () => {
    const database = await createTestDatabase(); // the read model is still a PostgreSQL table
    const eventStore = new InMemoryEventStore(eventRegistry);
    const deps = {
      db: database.db,
      eventStore,
      locks: new PgAdvisoryLocks({ pool: database.pool }),
      log: createLogger('silent'),
    };
    const live = new ProjectionRunner(deps, streamCatalogue, { idlePollMs: 120_000 });
    try {
      live.start();
      await expect.poll(() => live.status().state, { timeout: 10_000 }).toBe('active');
      await sleep(300); // Not for correctness: so that it has read the empty log and sleeps.
      await eventStore.appendToStream('link-in-memory', [event()], 'no_stream');
      // Not waitUntilPast: a waiter wakes the runner itself. The row must come from the append's wake-up.
      const streamRow = () =>
        withReadModels(database.db)
          .selectFrom('rm_streams')
          .select('event_count')
          .where('stream_id', '=', 'link-in-memory');
      await expect
        .poll(async () => (await streamRow().executeTakeFirst())?.event_count, { timeout: 10_000 })
        .toBe('1');
    } finally {
      await live.stop();
      await eventStore.close();
      await database.drop();
    }
  });
});
