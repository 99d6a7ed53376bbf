import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';
import type { EventRegistry } from '@sniplink/contracts';
import { comparePositions, type EventRow, type EventStore, START } from '@sniplink/platform';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  END_OF_TABLE,
  type EventLine,
  type Progress,
} from './format';
import { quotedColumns, tablesToBackUp } from './tables';

/** A backup the command cannot make, with a sentence for the operator. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupSource {
  pool: pg.Pool;
  eventStore: EventStore;
  eventStoreKind: BackupHeader['eventStore'];
  clickStreamKind: BackupHeader['clickStream'];
  registry: EventRegistry;
  /** The tables the projections own: rebuilt on restore, so not copied. */
  derivedTables: ReadonlySet<string>;
}

export interface BackupSummary {
  tables: number;
  rows: number;
  events: number;
  bytes: number;
}

const EVENTS_PER_READ = 2_000;

/**
 * Writes a backup of everything that is the source of truth to `file`, streaming: rows and events go from
 * the database to the file as they are read. The rows (and, on PostgreSQL, the events) are read in one
 * repeatable-read transaction, so the backup is one consistent moment even while the app writes. The file
 * appears under its name only once complete (it is written next to it first).
 */
export async function writeBackup(
  source: BackupSource,
  file: string,
  progress: Progress,
): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  const client = await source.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const header = await readHeader(client, source);
    const gzip = createGzip();
    const written = pipeline(gzip, createWriteStream(partial));
    // A failed write ends the pipeline; its error is the one to report, not the gzip's.
    written.catch(() => {});
    const out = lineWriter(gzip);
    await out(`${JSON.stringify(header)}\n`);
    const rows = await copyTables(client, header, out, progress);
    const events = await copyEvents(client, source, header.events, out, progress);
    await out(`${JSON.stringify({ end: true, events })}\n`);
    await client.query('COMMIT');
    gzip.end();
    await written;
    await rename(partial, file);
    return { tables: header.tables.length, rows, events, bytes: (await stat(file)).size };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    await rm(partial, { force: true });
    throw error;
  } finally {
    client.release();
  }
}

async function readHeader(client: pg.PoolClient, source: BackupSource): Promise<BackupHeader> {
  const migration = await lastMigration(client);
  if (!migration) {
    throw new BackupError(
      'The database holds no Sniplink data yet (it was never started): nothing to back up.',
    );
  }
  const tables = [];
  for (const table of await tablesToBackUp(client, source.derivedTables)) {
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${client.escapeIdentifier(table.name)}`,
    );
    tables.push({ ...table, rows: rows[0]?.count ?? 0 });
  }
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    migration,
    eventStore: source.eventStoreKind,
    clickStream: source.clickStreamKind,
    tables,
    events: source.eventStoreKind === 'postgres' ? await countEvents(client) : null,
  };
}

export async function lastMigration(client: pg.ClientBase): Promise<string | undefined> {
  const { rows } = await client.query<{ exists: boolean }>(
    `SELECT to_regclass('kysely_migration') IS NOT NULL AS exists`,
  );
  if (!rows[0]?.exists) return undefined;
  const last = await client.query<{ name: string }>(
    'SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1',
  );
  return last.rows[0]?.name;
}

async function countEvents(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM es_events');
  return rows[0]?.count ?? 0;
}

type LineWriter = (text: string | Buffer) => Promise<void>;

/** Writes to the gzip stream, waiting while it is full: memory stays flat however large the backup. */
function lineWriter(gzip: Gzip): LineWriter {
  return async (text) => {
    if (!gzip.write(text)) {
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          gzip.off('drain', done);
          gzip.off('error', done);
          if (error) reject(error);
          else resolve();
        };
        gzip.once('drain', done);
        gzip.once('error', done);
      });
    }
  };
}

async function copyTables(
  client: pg.PoolClient,
  header: BackupHeader,
  out: LineWriter,
  progress: Progress,
): Promise<number> {
  progress.start(
    'rows',
    header.tables.reduce((sum, table) => sum + table.rows, 0),
  );
  let total = 0;
  for (const table of header.tables) {
    await out(`${JSON.stringify({ table: table.name })}\n`);
    const rows = client.query(
      copyTo(
        `COPY ${client.escapeIdentifier(table.name)} (${quotedColumns(client, table.columns)}) TO STDOUT`,
      ),
    );
    for await (const chunk of rows as AsyncIterable<Buffer>) {
      await out(chunk);
      const lines = countLines(chunk);
      total += lines;
      progress.advance(lines);
    }
    await out(`${END_OF_TABLE}\n`);
  }
  progress.stop();
  return total;
}

function countLines(chunk: Buffer): number {
  let lines = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  return lines;
}

async function copyEvents(
  client: pg.PoolClient,
  source: BackupSource,
  expected: number | null,
  out: LineWriter,
  progress: Progress,
): Promise<number> {
  progress.start('events', expected);
  await out(`${JSON.stringify({ events: 'start' })}\n`);
  let written = 0;
  const pages = source.eventStoreKind === 'postgres' ? snapshotEvents(client) : storeEvents(source);
  for await (const page of pages) {
    await out(page.map((event) => `${JSON.stringify(event)}\n`).join(''));
    written += page.length;
    progress.advance(page.length);
  }
  progress.stop();
  return written;
}

/** The PostgreSQL event log in the backup's own snapshot, in the log's order, a page at a time. */
async function* snapshotEvents(client: pg.PoolClient): AsyncGenerator<EventLine[]> {
  let after = { transactionId: '0', position: '-1' };
  for (;;) {
    const { rows } = await client.query<EventRow>(
      // The casts keep the columns' names: ORDER BY names the table's columns (e.…), not the texts.
      `SELECT e.transaction_id::text, e.position::text, e.event_id::text, e.stream_id, e.revision::text, e.type,
         e.schema_version, e.data, e.metadata, e.actor_id, e.occurred_at
       FROM es_events e WHERE (e.transaction_id, e.position) > ($1::text::xid8, $2::bigint)
       ORDER BY e.transaction_id, e.position LIMIT $3`,
      [after.transactionId, after.position, EVENTS_PER_READ],
    );
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      id: row.event_id,
      stream: row.stream_id,
      revision: row.revision,
      type: row.type,
      version: row.schema_version,
      data: row.data,
      metadata: row.metadata,
      actor: row.actor_id,
      at: row.occurred_at.toISOString(),
    }));
    const last = rows[rows.length - 1] as EventRow;
    after = { transactionId: last.transaction_id, position: last.position };
  }
}

/**
 * EventStoreDB's log through the store's own reads, up to the head it had when the backup began. Its
 * events come back in their current shape, so they are written at the current version.
 */
async function* storeEvents(source: BackupSource): AsyncGenerator<EventLine[]> {
  const head = await source.eventStore.headPosition();
  if (comparePositions(head, START) === 0) return;
  let after = START;
  for (;;) {
    const { events, next } = await source.eventStore.readAll({ after, maxCount: EVENTS_PER_READ });
    const upToHead = events.filter(
      (event) =>
        event.globalPosition.commit < head.commit ||
        (event.globalPosition.commit === head.commit && event.globalPosition.prepare <= head.prepare),
    );
    if (upToHead.length > 0) {
      yield upToHead.map((event) => {
        const stored = source.registry.toStored(event.type, event.data);
        const metadata: Record<string, unknown> = { ...event.metadata };
        if (event.correlationId !== null) metadata.$correlationId = event.correlationId;
        if (event.causationId !== null) metadata.$causationId = event.causationId;
        return {
          id: event.id,
          stream: event.streamId,
          revision: event.revision.toString(),
          type: event.type,
          version: stored.schemaVersion,
          data: stored.data,
          metadata,
          actor: event.actorId,
          at: event.occurredAt.toISOString(),
        };
      });
    }
    if (upToHead.length < events.length || events.length === 0) return;
    after = next;
  }
}
