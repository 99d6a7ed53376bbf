import {
  createTestDatabase,
  openConnections,
  openConnectionsSettled,
  type TestDatabase,
} from '@sniplink/test-support/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from './database';

describe('connectDatabase', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database.drop();
  });

  it.each([
    ['only the pool was used (a stop before the first Kysely query)', false],
    ['Kysely was used too', true],
  ])('close() ends every connection when %s', async (_case, useKysely) => {
    const url = new URL(database.connectionString);
    const name = `close_test_${useKysely ? 'kysely' : 'pool'}`;
    url.searchParams.set('application_name', name);
    const connection = connectDatabase(url.toString(), { poolSize: 2 });
    await connection.pool.query('SELECT 1');
    if (useKysely) await connection.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    expect(await openConnections(database, name)).toBe(1);
    await connection.close();
    expect(connection.pool.ended).toBe(true);
    expect(await openConnectionsSettled(database, name)).toBe(0);
    await connection.close(); // a second close is harmless
  });
});
