import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { EventRegistry } from '@sniplink/contracts';
import {
  type Database,
  type EventStore,
  type ImportedEvent,
  idsOutOfMetadata,
  migrateToLatest,
  PostgresEventStore,
} from '@sniplink/platform';
import { type Kysely, type Migration, Migrator } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { z } from 'zod';
import { lastMigration } from './backup';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  END_OF_TABLE,
  type EventLine,
  endSchema,
  eventLineSchema,
  eventsStartSchema,
  headerSchema,
  type Progress,
  tableStartSchema,
} from './format';
import { FILLED_ON_THEIR_OWN, quotedColumns } from './tables';

/** A restore the command refuses or cannot finish, with a sentence for the operator. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

export interface RestoreTarget {
  pool: pg.Pool;
  db: Kysely<Database>;
  eventStore: EventStore;
  registry: EventRegistry;
  migrations: Record<string, Migration>;
  /** Where the database is, as the operator knows it. */
  describe: string;
}

export interface RestoreSummary {
  header: BackupHeader;
  rows: number;
  events: number;
}

const EVENTS_PER_WRITE = 1_000;

/**
 * Loads a backup into an empty database: first checks the file is whole and the database empty, then
 * brings the schema to the backup's migration, copies the rows in one transaction, runs the newer
 * migrations (a backup of an older release is upgraded as that release's database would be) and appends
 * the events in their order. The read models are left to be rebuilt from the restored log.
 */
export async function restoreBackup(
  target: RestoreTarget,
  file: string,
  progress: Progress,
): Promise<RestoreSummary> {
  await access(file).catch(() => {
    throw new RestoreError(`There is no file ${file}.`);
  });
  const lines = readLines(file);
  const header = await readBackupHeader(file, lines);
  await checkWhole(file, progress);
  await checkEmpty(target, header);
  await migrateTo(target, header.migration);
  const rows = await loadTables(target.pool, header, lines, progress);
  await migrateToLatest(target.db, target.migrations);
  const events = await loadEvents(target, header, lines, progress);
  return { header, rows, events };
}

type Lines = AsyncIterator<string>;

function readLines(file: string): Lines {
  const input = createReadStream(file).pipe(createGunzip());
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
}

async function nextLine(file: string, lines: Lines, expecting: string): Promise<string> {
  let next: IteratorResult<string>;
  try {
    next = await lines.next();
  } catch {
    throw notABackup(file);
  }
  if (next.done) throw new RestoreError(`${file} ends before ${expecting}: it is not a whole backup.`);
  return next.value;
}

function parsedLine<Schema extends z.ZodType>(
  file: string,
  line: string,
  schema: Schema,
  expecting: string,
): z.infer<Schema> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new RestoreError(`${file} has a damaged line where ${expecting} should be.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new RestoreError(`${file} has a damaged line where ${expecting} should be.`);
  return parsed.data;
}

const notABackup = (file: string) =>
  new RestoreError(`${file} is not a Sniplink backup (npm run backup writes them).`);

async function readBackupHeader(file: string, lines: Lines): Promise<BackupHeader> {
  const first = await nextLine(file, lines, 'its header');
  let json: { format?: unknown; version?: unknown };
  try {
    json = JSON.parse(first);
  } catch {
    throw notABackup(file);
  }
  if (json?.format !== BACKUP_FORMAT) throw notABackup(file);
  if (typeof json.version === 'number' && json.version > BACKUP_VERSION) {
    throw new RestoreError(
      `${file} was written by a newer Sniplink (backup format ${json.version}; this one reads up to ${BACKUP_VERSION}): restore it with that release or a later one.`,
    );
  }
  return parsedLine(file, first, headerSchema, 'its header');
}

/** Reads the whole file once before anything is written: a truncated or damaged file changes nothing. */
async function checkWhole(file: string, progress: Progress): Promise<void> {
  progress.start('checking the file', null);
  let last = '';
  let count = 0;
  try {
    for await (const line of createInterface({
      input: createReadStream(file).pipe(createGunzip()),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      last = line;
      if (++count % 10_000 === 0) progress.advance(10_000);
    }
  } catch {
    throw new RestoreError(`${file} is damaged or cut short (its compressed data does not check out).`);
  } finally {
    progress.stop();
  }
  let end: unknown;
  try {
    end = JSON.parse(last);
  } catch {}
  if (!endSchema.safeParse(end).success) {
    throw new RestoreError(`${file} is cut short (it has no end line): it is not a whole backup.`);
  }
}

async function checkEmpty(target: RestoreTarget, header: BackupHeader): Promise<void> {
  const refuse = (what: string) =>
    new RestoreError(
      `The database (${target.describe}) is not empty: ${what}. Restore needs an empty database: point DATABASE_URL at a new one, or DATA_DIR at a new directory for the embedded server.`,
    );
  const client = await target.pool.connect();
  try {
    if ((await eventCount(client, target.eventStore)) > 0) throw refuse('its event log holds events');
    for (const table of header.tables) {
      if (FILLED_ON_THEIR_OWN.has(table.name)) continue;
      const { rows } = await client
        .query<{ held: boolean }>(
          `SELECT to_regclass($1) IS NOT NULL AND EXISTS (SELECT 1 FROM ${client.escapeIdentifier(table.name)}) AS held`,
          [table.name],
        )
        .catch(() => ({ rows: [{ held: false }] }));
      if (rows[0]?.held) throw refuse(`its table ${table.name} holds rows`);
    }
  } finally {
    client.release();
  }
}

async function eventCount(client: pg.PoolClient, eventStore: EventStore): Promise<number> {
  if (eventStore instanceof PostgresEventStore) {
    const { rows } = await client.query<{ exists: boolean }>(
      `SELECT to_regclass('es_events') IS NOT NULL AS exists`,
    );
    if (!rows[0]?.exists) return 0;
    const held = await client.query<{ held: boolean }>('SELECT EXISTS (SELECT 1 FROM es_events) AS held');
    return held.rows[0]?.held ? 1 : 0;
  }
  const { events } = await eventStore.readAll({ maxCount: 1 });
  return events.length;
}

async function migrateTo(target: RestoreTarget, migration: string): Promise<void> {
  if (!(migration in target.migrations)) {
    throw new RestoreError(
      `The backup was made by a newer Sniplink (its database had migration ${migration}, which this one does not know): upgrade this installation first.`,
    );
  }
  const client = await target.pool.connect();
  const applied = await lastMigration(client).finally(() => client.release());
  if (applied && applied > migration) {
    throw new RestoreError(
      `The database (${target.describe}) was set up by a newer release than the backup's: restore into a new database, before the app starts on it.`,
    );
  }
  const migrator = new Migrator({
    db: target.db,
    provider: { getMigrations: async () => target.migrations },
  });
  const { error, results } = await migrator.migrateTo(migration);
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new RestoreError(
      `Setting up the database failed at migration ${failed}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Every table's rows in one transaction: a failure leaves no row of the backup behind. */
async function loadTables(
  pool: pg.Pool,
  header: BackupHeader,
  lines: Lines,
  progress: Progress,
): Promise<number> {
  const file = 'The backup';
  progress.start(
    'rows',
    header.tables.reduce((sum, table) => sum + table.rows, 0),
  );
  const client = await pool.connect();
  let loaded = 0;
  try {
    await client.query('BEGIN');
    if (header.tables.length > 0) {
      await client.query(
        `TRUNCATE ${header.tables.map((table) => client.escapeIdentifier(table.name)).join(', ')}`,
      );
    }
    for (const table of header.tables) {
      const start = parsedLine(
        file,
        await nextLine(file, lines, `table ${table.name}`),
        tableStartSchema,
        `table ${table.name}`,
      );
      if (start.table !== table.name)
        throw new RestoreError(`The backup's tables are out of order at ${start.table}.`);
      loaded += await copyTable(client, table, lines, progress);
      await resetSequences(client, table.name);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
    progress.stop();
  }
  return loaded;
}

async function copyTable(
  client: pg.PoolClient,
  table: BackupHeader['tables'][number],
  lines: Lines,
  progress: Progress,
): Promise<number> {
  const copy = client.query(
    copyFrom(
      `COPY ${client.escapeIdentifier(table.name)} (${quotedColumns(client, table.columns)}) FROM STDIN`,
    ),
  );
  const done = finished(copy);
  done.catch(() => {});
  let rows = 0;
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const chunk = `${pending.join('\n')}\n`;
    pending = [];
    if (!copy.write(chunk)) await new Promise((resolve) => copy.once('drain', resolve));
  };
  for (;;) {
    const line = await nextLine('The backup', lines, `the end of table ${table.name}`);
    if (line === END_OF_TABLE) break;
    pending.push(line);
    rows++;
    if (pending.length === 1_000) {
      await flush();
      progress.advance(1_000);
    }
  }
  progress.advance(pending.length);
  await flush();
  copy.end();
  await done;
  if (rows !== table.rows) {
    throw new RestoreError(
      `The backup's table ${table.name} has ${rows} rows where its header says ${table.rows}.`,
    );
  }
  return rows;
}

/** Sequences owned by the table's columns continue after the restored rows. */
async function resetSequences(client: pg.PoolClient, table: string): Promise<void> {
  const { rows } = await client.query<{ sequence: string; column: string }>(
    `SELECT s.oid::regclass::text AS sequence, a.attname AS column
     FROM pg_class s
     JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
     JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
     WHERE s.relkind = 'S' AND d.refobjid = to_regclass($1)`,
    [table],
  );
  for (const { sequence, column } of rows) {
    await client.query(
      `SELECT setval($1::regclass, coalesce(max(${client.escapeIdentifier(column)}), 1), max(${client.escapeIdentifier(column)}) IS NOT NULL)
       FROM ${client.escapeIdentifier(table)}`,
      [sequence],
    );
  }
}

async function loadEvents(
  target: RestoreTarget,
  header: BackupHeader,
  lines: Lines,
  progress: Progress,
): Promise<number> {
  const file = 'The backup';
  parsedLine(file, await nextLine(file, lines, 'its events'), eventsStartSchema, 'its events');
  progress.start('events', header.events);
  let batch: ImportedEvent[] = [];
  let loaded = 0;
  try {
    for (;;) {
      const line = await nextLine(file, lines, 'its end line');
      if (line.startsWith('{"end":')) {
        const end = parsedLine(file, line, endSchema, 'its end line');
        await appendEvents(target.eventStore, batch);
        progress.advance(batch.length);
        loaded += batch.length;
        if (end.events !== loaded) {
          throw new RestoreError(`The backup has ${loaded} events where its end line says ${end.events}.`);
        }
        return loaded;
      }
      batch.push(toImported(target.registry, parsedLine(file, line, eventLineSchema, 'an event')));
      if (batch.length === EVENTS_PER_WRITE) {
        await appendEvents(target.eventStore, batch);
        progress.advance(batch.length);
        loaded += batch.length;
        batch = [];
      }
    }
  } finally {
    progress.stop();
  }
}

/** The event in its current shape (an older release's data is upcast as a read would). */
function toImported(registry: EventRegistry, line: EventLine): ImportedEvent {
  const { correlationId, causationId, metadata } = idsOutOfMetadata(line.metadata);
  return {
    id: line.id,
    streamId: line.stream,
    revision: BigInt(line.revision),
    type: line.type,
    data: registry.fromStored(line.type, line.version, line.data),
    metadata,
    actorId: line.actor,
    ...(correlationId === null ? {} : { correlationId }),
    ...(causationId === null ? {} : { causationId }),
    occurredAt: new Date(line.at),
  };
}

/**
 * On PostgreSQL, a batch per statement; on EventStoreDB, each run of one stream's events as one append
 * that expects the revision before it, in the backup's order.
 */
async function appendEvents(eventStore: EventStore, events: ImportedEvent[]): Promise<void> {
  if (eventStore instanceof PostgresEventStore) {
    await eventStore.importEvents(events);
    return;
  }
  for (let start = 0; start < events.length; ) {
    const first = events[start] as ImportedEvent;
    let end = start + 1;
    while (end < events.length && events[end]?.streamId === first.streamId) end++;
    await eventStore.appendToStream(
      first.streamId,
      events.slice(start, end),
      first.revision === 0n ? 'no_stream' : first.revision - 1n,
    );
    start = end;
  }
}
