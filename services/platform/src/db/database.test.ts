import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database';
import { connectDatabase } from './database';

describe('connectDatabase', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database.drop();
  });

  const connectionsNamed = async (applicationName: string) => {
    const { rows } = await database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [applicationName],
    );
    return rows[0]?.n ?? 0;
  };

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
    expect(await connectionsNamed(name)).toBe(1);
    await connection.close();
    expect(connection.pool.ended).toBe(true);
    for (let i = 0; i < 50 && (await connectionsNamed(name)) > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await connectionsNamed(name)).toBe(0);
    await connection.close(); // a second close is harmless
  });
});
