import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { withReadModels } from '@sniplink/projections';
import { startAppProcess } from '@sniplink/test-support/app-process';
import { createTestStack, type TestStack } from '@sniplink/test-support/stack';
import { until } from '@sniplink/test-support/until';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = path.resolve(import.meta.dirname, 'rebuild-projections.ts');
const rebuild = (databaseUrl: string, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 100_000,
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

  it('rebuilds every read model from the log and says what it did', { timeout: 90_000 }, async () => {
    const result = rebuild(stack.database.connectionString);
    // stderr holds the progress bars only.
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.stderr).toContain('stream-catalogue');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^rebuilt stream-catalogue: 6 events in \d+ ms, swapped in [\d.]+ ms$/m);
    expect(result.stdout).toMatch(/^rebuilt links: 0 events/m);
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

  it('rebuilds one read model while a running app keeps its projections, and refuses a name none has', async () => {
    const app = await startAppProcess({ DATABASE_URL: stack.database.connectionString });
    try {
      const result = rebuild(stack.database.connectionString, 'stream-catalogue');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^rebuilt stream-catalogue: 6 events in \d+ ms, swapped in [\d.]+ ms$/m);
      expect(result.stdout).not.toContain('rebuilt links');
      const unknown = rebuild(stack.database.connectionString, 'nothing');
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toMatch(
        /^No projection is named "nothing"; the projections are stream-catalogue, /,
      );
    } finally {
      expect(await app.stop()).toBe(0);
    }
  }, 120_000);

  it('resumes a rebuild killed with SIGKILL where its new copy was, to the same rows', async () => {
    for (let i = 0; i < 40; i++) {
      const events = Array.from({ length: 50 }, () => ({
        id: uuidv7(),
        type: 'EmailReleased',
        data: { userId: uuidv7() },
        occurredAt: new Date(),
      }));
      await stack.eventStore.appendToStream(`bulk-${i}`, events, 'no_stream');
    }
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'stream-catalogue', '--batch-size', '5'], {
      env: { ...process.env, DATABASE_URL: stack.database.connectionString, LOG_LEVEL: 'warn' },
    });
    const db = stack.database.db;
    // Killed once its new copy holds part of the log.
    await until(
      () =>
        db
          .selectFrom('projection_rebuilds')
          .select('applied')
          .where('name', '=', 'stream-catalogue')
          .executeTakeFirst(),
      (row) => Number(row?.applied ?? 0) > 100,
      60_000,
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const cut = await db
      .selectFrom('projection_rebuilds')
      .selectAll()
      .where('name', '=', 'stream-catalogue')
      .executeTakeFirstOrThrow();
    expect(cut.state).toBe('building');
    expect(Number(cut.applied)).toBeLessThan(2_006);

    const resumed = rebuild(stack.database.connectionString, 'stream-catalogue');
    expect(resumed.status).toBe(0);
    // The second run applied only what the first had not: the events it reports are over both runs.
    expect(resumed.stdout).toMatch(/^rebuilt stream-catalogue: 2006 events/m);
    const rows = await withReadModels(db)
      .selectFrom('rm_streams')
      .select(['stream_id', 'event_count'])
      .execute();
    expect(rows).toHaveLength(43);
    expect(rows.every((row) => row.event_count === (row.stream_id.startsWith('bulk-') ? '50' : '2'))).toBe(
      true,
    );
  }, 120_000);
});
