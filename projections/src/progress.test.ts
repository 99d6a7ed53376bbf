import { PgNotifications } from '@sniplink/platform';
import { testDatabaseWithNotifications } from '@sniplink/test-support/database';
import { describe, expect, it } from 'vitest';
import { PROJECTION_PROGRESS_CHANNEL, ProjectionProgress } from './progress';

describe('ProjectionProgress', () => {
  const testDb = testDatabaseWithNotifications();

  it('answers a waiter at once when its listening connection is back, if the read model passed meanwhile', async () => {
    const progress = new ProjectionProgress({
      db: testDb().database.db,
      broadcast: testDb().notifications.channel(PROJECTION_PROGRESS_CHANNEL),
    });
    const target = { commit: 10n, prepare: 10n };
    const waiting = progress.waitFor({ name: 'links' }, target, 20_000);
    await expect.poll(() => listeners()).toBe(1);
    const pending = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500));
    expect(await Promise.race([waiting, pending])).toBe('still waiting'); // the table had nothing yet
    // The runner's report (its NOTIFY) is lost with the connection: only the table knows.
    await testDb().database.pool.query(
      `INSERT INTO projection_checkpoints (name, version, commit_position, prepare_position) VALUES ('links', 1, 12, 12)`,
    );
    const started = Date.now();
    await testDb().database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'sniplink-listen' AND datname = current_database()`,
    );
    expect(await waiting).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000); // not at the end of its 20 s
  });

  it("tells a read model's followers each time it advances, in any process, and when messages may have been lost", async () => {
    const follower = new ProjectionProgress({
      db: testDb().database.db,
      broadcast: testDb().notifications.channel(PROJECTION_PROGRESS_CHANNEL),
    });
    // A runner of another process reports on its own connection to the same database.
    const elsewhere = new PgNotifications({ connectionString: testDb().database.connectionString });
    const runner = new ProjectionProgress({
      db: testDb().database.db,
      broadcast: elsewhere.channel(PROJECTION_PROGRESS_CHANNEL),
    });
    try {
      let heard = 0;
      const stop = await follower.onAdvance({ name: 'admin-config' }, () => heard++);
      await runner.report('admin-config', { commit: 5n, prepare: 5n });
      await expect.poll(() => heard).toBe(1);
      await runner.report('links', { commit: 6n, prepare: 6n }); // another read model: not this one's
      await runner.report('admin-config', { commit: 5n, prepare: 5n }); // no further than before
      await runner.report('admin-config', { commit: 7n, prepare: 7n });
      await expect.poll(() => heard).toBe(2);
      await elsewhere.channel(PROJECTION_PROGRESS_CHANNEL).publish(''); // "look again"
      await expect.poll(() => heard).toBe(3);
      stop();
      await runner.report('admin-config', { commit: 9n, prepare: 9n });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard).toBe(3);
    } finally {
      await elsewhere.close();
    }
  });

  async function listeners(): Promise<number> {
    const { rows } = await testDb().database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE application_name = 'sniplink-listen' AND datname = current_database()`,
    );
    return rows[0]?.n ?? 0;
  }
});
