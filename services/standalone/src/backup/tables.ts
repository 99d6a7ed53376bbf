import { COUNTERS_FILLED_BY_MIGRATION } from '@sniplink/projections';
import type pg from 'pg';

/**
 * What a backup copies as rows: every table of the schema but those rebuilt from the event log (each
 * projection's own tables and their checkpoints), the event log itself (copied event by event, since its
 * positions are the server's transaction ids and mean nothing on another server) and the migrator's
 * bookkeeping. A table a new migration adds is therefore backed up unless a projection owns it: nothing is
 * left out by forgetting to list it.
 */
const NOT_ROWS = new Set([
  'es_events',
  'es_streams',
  'projection_checkpoints',
  'kysely_migration',
  'kysely_migration_lock',
]);

/**
 * Rows a database fills on its own (the first start's secrets, a migration's seed rows): a target that
 * holds only these is still empty, and the restore replaces them with the backup's.
 */
export const FILLED_ON_THEIR_OWN: ReadonlySet<string> = new Set([
  'app_secrets',
  'support_urgent_digests',
  ...COUNTERS_FILLED_BY_MIGRATION,
]);

export interface TableColumns {
  name: string;
  columns: string[];
}

export async function tablesToBackUp(
  client: pg.ClientBase,
  derivedTables: ReadonlySet<string>,
): Promise<TableColumns[]> {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
     FROM information_schema.columns c
     JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
     GROUP BY c.table_name ORDER BY c.table_name`,
  );
  return rows
    .filter((row) => !NOT_ROWS.has(row.table_name) && !derivedTables.has(row.table_name))
    .map((row) => ({ name: row.table_name, columns: row.columns }));
}

export const quotedColumns = (client: pg.ClientBase, columns: readonly string[]) =>
  columns.map((column) => client.escapeIdentifier(column)).join(', ');
