import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database';
import { PgNotifications } from './notifications';

describe('PgNotifications', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database.drop();
  });

  /** This database's LISTEN connections still open on the server. */
  const listenConnections = async () => {
    const { rows } = await database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'sniplink-listen'",
    );
    return rows[0]?.n ?? 0;
  };
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
    return check();
  };

  it('delivers a NOTIFY to the handlers of its channel, and stops listening once closed', async () => {
    const notifications = new PgNotifications(database.connectionString);
    const received: string[] = [];
    await notifications.listen('test_channel', (payload) => received.push(payload));
    await database.pool.query("SELECT pg_notify('test_channel', 'hello')");
    expect(await eventually(async () => received.length > 0)).toBe(true);
    expect(received).toEqual(['hello']);
    await notifications.close();
    expect(await eventually(async () => (await listenConnections()) === 0)).toBe(true);
  });

  it('closed while its connection is still being opened, leaves no connection behind', async () => {
    // A process stopped right after it started (a SIGTERM during start-up): the connection that was on its
    // way kept the process alive past its shutdown.
    const notifications = new PgNotifications(database.connectionString);
    const listening = notifications.listen('early_channel', () => {});
    await notifications.close();
    await listening.catch(() => {});
    expect(await eventually(async () => (await listenConnections()) === 0)).toBe(true);
    await expect(notifications.listen('late_channel', () => {})).rejects.toThrow(/closed/);
  });
});
