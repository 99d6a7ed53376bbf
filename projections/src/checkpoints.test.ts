import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceCheckpoint, loadCheckpoint } from './checkpoints';
import { streamCatalogue } from './stream-catalogue/projection';

describe('projection checkpoints', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  it("keep an EventStoreDB position exactly: commit and prepare are the log's byte offsets, past 2^53", async () => {
    const start = await loadCheckpoint(database.db, streamCatalogue);
    const position = { commit: 2n ** 53n + 7n, prepare: 2n ** 53n + 5n };
    await database.db
      .transaction()
      .execute((trx) => advanceCheckpoint(trx, streamCatalogue, start, position));
    expect(await loadCheckpoint(database.db, streamCatalogue)).toEqual(position);
  });
});
