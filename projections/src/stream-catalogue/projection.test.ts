import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withReadModels } from '../read-models';
import { appendSampleHistory, readEntireLog, snapshot } from '../testing/fixtures';
import { streamCatalogue } from './projection';

describe('stream catalogue projection', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    await appendSampleHistory(stack.eventStore, 12, 23);
  });
  afterAll(() => stack.cleanup());

  const applyInBatches = async (batchSize: number, times: number) => {
    await sql`TRUNCATE rm_streams`.execute(stack.database.db);
    const events = await readEntireLog(stack.eventStore);
    for (let i = 0; i < events.length; i += batchSize) {
      const batch = events.slice(i, i + batchSize);
      for (let t = 0; t < times; t++) {
        await stack.database.db
          .transaction()
          .execute((trx) => streamCatalogue.apply(withReadModels(trx), batch));
      }
    }
    return snapshot(stack.database.db, 'rm_streams', 'stream_id');
  };

  it('describes every stream: category, last revision, count, first and last times', async () => {
    const rows = await applyInBatches(50, 1);
    expect(rows).toHaveLength(12);
    expect(rows).toContainEqual({
      stream_id: 'user-1',
      category: 'user',
      last_revision: '22',
      event_count: '23',
      last_event_type: 'EmailReleased',
      first_event_at: '2026-11-01T00:00:00.000Z',
      last_event_at: '2026-11-01T00:00:22.000Z',
    });
  });

  it('gives the same rows when every event is delivered twice', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(50, 2)).toEqual(once);
  });

  it('gives the same rows whatever the batch size', async () => {
    const once = await applyInBatches(50, 1);
    expect(await applyInBatches(7, 1)).toEqual(once);
    expect(await applyInBatches(10_000, 1)).toEqual(once);
  });
});
