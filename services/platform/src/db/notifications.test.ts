import {
  createTestDatabase,
  openConnectionsSettled,
  type TestDatabase,
} from '@sniplink/test-support/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgNotifications } from './notifications';

describe('PgNotifications', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('delivers a NOTIFY to the handlers of its channel, and stops listening once closed', async () => {
    const notifications = new PgNotifications({ connectionString: database.connectionString });
    const received: string[] = [];
    await notifications.listen('test_channel', (payload) => received.push(payload));
    await database.pool.query("SELECT pg_notify('test_channel', 'hello')");
    await expect.poll(() => received).toEqual(['hello']);
    await notifications.close();
    expect(await openConnectionsSettled(database, 'sniplink-listen')).toBe(0);
  });

  it('listens again after the server ended its connection, and wakes every handler (what was sent meanwhile is gone)', async () => {
    const notifications = new PgNotifications({ connectionString: database.connectionString });
    const received: string[] = [];
    await notifications.listen('lost_channel', (payload) => received.push(payload));
    await database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'sniplink-listen' AND datname = current_database()`,
    );
    await expect.poll(() => received).toEqual(['']); // "look again": notifications may have been missed
    await database.pool.query("SELECT pg_notify('lost_channel', 'after')");
    await expect.poll(() => received).toEqual(['', 'after']);
    await notifications.close();
  });

  it('closed while its connection is still being opened, leaves no connection behind', async () => {
    // A process stopped right after it started (a SIGTERM during start-up): the connection that was on its
    // way kept the process alive past its shutdown.
    const notifications = new PgNotifications({ connectionString: database.connectionString });
    const listening = notifications.listen('early_channel', () => {});
    await notifications.close();
    await listening.catch(() => {});
    expect(await openConnectionsSettled(database, 'sniplink-listen')).toBe(0);
    await expect(notifications.listen('late_channel', () => {})).rejects.toThrow(/closed/);
  });
});
