import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { comparePositions, PgAdvisoryLocks } from '@sniplink/platform';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from './checkpoints';
import { rebuildProjections } from './rebuild';
import { ProjectionRunner } from './runner';
import { streamCatalogue } from './stream-catalogue/projection';
import { appendSampleHistory, readEntireLog, snapshot } from './testing/fixtures';

const CHILD = path.join(import.meta.dirname, 'testing', 'runner-child.ts');

describe('projection runner killed with kill -9 in the middle of a batch', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    await appendSampleHistory(stack.eventStore, 40, 50);
  });
  afterAll(() => stack.cleanup());

  it('leaves the checkpoint at the last whole batch, and after a restart the read model equals a rebuild', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, stack.database.connectionString, '5', '100'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: child.stdout });
    const midBatch = new Promise<void>((resolve) =>
      lines.on('line', (line) => line === 'MID_BATCH' && resolve()),
    );
    await Promise.race([
      midBatch,
      once(child, 'exit').then(() => Promise.reject(new Error('child exited early'))),
    ]);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(child.signalCode).toBe('SIGKILL');

    // Four whole batches of 100 were committed; the half-applied fifth was rolled back with its checkpoint.
    const log = await readEntireLog(stack.eventStore);
    const checkpoint = await loadCheckpoint(stack.database.db, streamCatalogue);
    expect(comparePositions(checkpoint, log[399]?.globalPosition ?? checkpoint)).toBe(0);
    const partial = await snapshot(stack.database.db, 'rm_streams', 'stream_id');
    expect(
      partial.reduce((sum: number, row) => sum + Number((row as { event_count: string }).event_count), 0),
    ).toBe(400);

    const deps = {
      db: stack.database.db,
      eventStore: stack.eventStore,
      locks: new PgAdvisoryLocks({ pool: stack.database.pool }),
      log: stack.log,
    };
    const restarted = new ProjectionRunner(deps, streamCatalogue, { batchSize: 100, standbyRetryMs: 50 });
    restarted.start();
    const head = await stack.eventStore.headPosition();
    expect(await restarted.waitUntilPast(head, 20_000)).toBe(true);
    await restarted.stop();
    const afterRestart = await snapshot(stack.database.db, 'rm_streams', 'stream_id');

    await rebuildProjections(deps, [streamCatalogue]);
    const rebuilt = await snapshot(stack.database.db, 'rm_streams', 'stream_id');
    expect(rebuilt).toHaveLength(40);
    expect(afterRestart).toEqual(rebuilt);
  });
});
