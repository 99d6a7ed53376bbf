import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@sniplink/test-support/database';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from './database';
import { isDatabaseUnavailable } from './unavailable';

/** The error a promise rejects with (the test fails if it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** A TCP server on loopback that accepts connections and never says a word: a server that hangs. */
async function silentServer(): Promise<{ port: number; server: Server; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, server, sockets };
}

describe('isDatabaseUnavailable, on what the pg driver really throws', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(() => database?.drop());

  it('a server that is not there: no socket file, nothing listening on the port', async () => {
    const noSocket = connectDatabase(
      'postgresql://postgres@localhost/postgres?host=/tmp/sniplink-no-such-dir',
    );
    const noSocketError = await failureOf(
      noSocket.db.selectFrom('projection_checkpoints').selectAll().execute(),
    );
    expect(noSocketError).toMatchObject({ code: 'ENOENT', syscall: 'connect' });
    expect(isDatabaseUnavailable(noSocketError)).toBe(true);
    await noSocket.close();

    const { port, server } = await silentServer();
    server.close();
    await once(server, 'close');
    const refused = new pg.Pool({ connectionString: `postgresql://x@127.0.0.1:${port}/x` });
    const refusedError = await failureOf(refused.query('SELECT 1'));
    expect(refusedError).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refusedError)).toBe(true);
    await refused.end();
  });

  it('a server that does not answer: the pool and a client give up connecting', async () => {
    const { port, server, sockets } = await silentServer();
    const url = `postgresql://x@127.0.0.1:${port}/x`;
    const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 200 });
    const poolError = await failureOf(pool.query('SELECT 1'));
    expect(String(poolError)).toMatch(/timeout/);
    expect(isDatabaseUnavailable(poolError)).toBe(true);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 200 });
    const clientError = await failureOf(client.connect());
    expect(isDatabaseUnavailable(clientError)).toBe(true);
    await pool.end();
    for (const socket of sockets) socket.destroy();
    server.close();
  });

  it('a connection the server ends (57P01), and the client used after that', async () => {
    const client = new pg.Client({ connectionString: database.connectionString });
    client.on('error', () => {});
    await client.connect();
    const sleeping = failureOf(client.query('SELECT pg_sleep(30)'));
    await expect
      .poll(async () => {
        const { rowCount } = await database.pool.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'",
        );
        return rowCount;
      })
      .toBe(1);
    const terminated = await sleeping;
    expect(terminated).toMatchObject({ code: '57P01' });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    const afterwards = await failureOf(client.query('SELECT 1'));
    expect(isDatabaseUnavailable(afterwards)).toBe(true);
    await client.end().catch(() => {});
  });

  it('an error wrapped as the cause of another is looked through', async () => {
    const noSocket = new pg.Client({ host: '/tmp/sniplink-no-such-dir', user: 'x', database: 'x' });
    const inner = await failureOf(noSocket.connect());
    expect(isDatabaseUnavailable(new Error('command failed', { cause: inner }))).toBe(true);
  });

  it('is false for what the server refused and for errors that are not the database', async () => {
    const syntax = await failureOf(database.pool.query('SELEC 1'));
    expect(syntax).toMatchObject({ code: '42601' });
    await database.pool.query('CREATE TABLE once (id int PRIMARY KEY); INSERT INTO once VALUES (1)');
    const duplicate = await failureOf(database.pool.query('INSERT INTO once VALUES (1)'));
    expect(duplicate).toMatchObject({ code: '23505' });
    const missingFile = await failureOf(readFile('/tmp/sniplink-no-such-file'));
    expect(missingFile).toMatchObject({ code: 'ENOENT', syscall: 'open' });
    for (const error of [syntax, duplicate, missingFile, new Error('boom'), 'text', null]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});
