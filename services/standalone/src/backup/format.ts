/**
 * The backup file: gzip-compressed lines. A JSON header first, then each table's rows as PostgreSQL's COPY
 * text (one row per line, newlines inside values escaped) between a `{"table":…}` line and a `\.` line, then
 * the event log as one JSON event per line, and an end line that says the file is whole. COPY text keeps
 * every column type exact and reads back on any PostgreSQL version; a line of its own can never be `\.`
 * (a backslash in a value is written `\\`).
 */
import { z } from 'zod';

export const BACKUP_FORMAT = 'sniplink-backup';
/** Bumped when a reader of the previous version could not read the file. */
export const BACKUP_VERSION = 1;
export const END_OF_TABLE = '\\.';

const tableSchema = z.object({
  name: z.string().min(1),
  columns: z.array(z.string().min(1)).min(1),
  rows: z.number().int().nonnegative(),
});

export const headerSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  createdAt: z.string(),
  /** The last migration the database had: the rows are in the shape it left them. */
  migration: z.string().min(1),
  eventStore: z.enum(['postgres', 'eventstoredb']),
  clickStream: z.enum(['postgres', 'kafka']),
  tables: z.array(tableSchema),
  /** Null when the store cannot count them up front (EventStoreDB). */
  events: z.number().int().nonnegative().nullable(),
});
export type BackupHeader = z.infer<typeof headerSchema>;

/** An event as the store kept it: its data at the version it was stored at, its metadata whole. */
export const eventLineSchema = z.object({
  id: z.string().min(1),
  stream: z.string().min(1),
  revision: z.string().regex(/^\d+$/),
  type: z.string().min(1),
  version: z.number().int().positive(),
  data: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
  actor: z.string().nullable(),
  at: z.iso.datetime({ offset: true }),
});
export type EventLine = z.infer<typeof eventLineSchema>;

export const tableStartSchema = z.object({ table: z.string().min(1) });
export const eventsStartSchema = z.object({ events: z.literal('start') });
export const endSchema = z.object({ end: z.literal(true), events: z.number().int().nonnegative() });

/** What the commands show while they work: a bar where the total is known, a count where it is not. */
export interface Progress {
  start(label: string, total: number | null): void;
  advance(by: number): void;
  /** What the step is on now (a read model's name and its events so far). */
  note(text: string): void;
  stop(): void;
}
