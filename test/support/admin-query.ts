import pg from 'pg';

/** One statement on a connection of its own (CREATE and DROP DATABASE run outside any pool). */
export async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
