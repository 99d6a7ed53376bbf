import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { withReadModels } from '@sniplink/projections';
import { startAppProcess } from '@sniplink/test-support/app-process';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = path.resolve(import.meta.dirname, 'rebuild-projections.ts');
const rebuild = (databaseUrl: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', CLI], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('npm run projections:rebuild', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await createTestStack();
    for (let i = 0; i < 3; i++) {
      const events = [0, 1].map(() => ({
        id: uuidv7(),
        type: 'EmailReleased',
        data: { userId: uuidv7() },
        occurredAt: new Date(),
      }));
      await stack.eventStore.appendToStream(`note-${i}`, events, 'no_stream');
    }
  });
  afterAll(() => stack.cleanup());

  it('rebuilds every read model from the log and says what it did', async () => {
    const result = rebuild(stack.database.connectionString);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^rebuilt stream-catalogue: 6 events in \d+ ms$/m);
    const rows = await withReadModels(stack.database.db)
      .selectFrom('rm_streams')
      .select(['stream_id', 'event_count'])
      .execute();
    expect(rows.map((row) => [row.stream_id, row.event_count]).sort()).toEqual([
      ['note-0', '2'],
      ['note-1', '2'],
      ['note-2', '2'],
    ]);
  });

  it('refuses while a running app holds the projections, and says to stop it', async () => {
    const app = await startAppProcess({ DATABASE_URL: stack.database.connectionString });
    try {
      const result = rebuild(stack.database.connectionString);
      expect(result.status).toBe(3);
      expect(result.stderr).toContain(
        'Projection stream-catalogue is being run by another process; stop it before rebuilding.',
      );
    } finally {
      expect(await app.stop()).toBe(0);
    }
  });
});
