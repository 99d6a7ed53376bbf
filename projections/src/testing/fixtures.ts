import type { Database, EventStore, EventToAppend, LogPosition, RecordedEvent } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { ReadModelTables } from '../read-models';

/**
 * Appends `streams` streams of `perStream` events each, in appends of a few events, round-robin. The
 * events are declared ones (the store refuses others) that only the stream catalogue reads.
 */
export async function appendSampleHistory(
  store: EventStore,
  streams: number,
  perStream: number,
): Promise<void> {
  const names = Array.from({ length: streams }, (_, i) => `${i % 2 ? 'user' : 'link'}-${i}`);
  for (let revision = 0; revision < perStream; revision += 5) {
    await Promise.all(
      names.map((stream, i) => {
        const count = Math.min(5, perStream - revision);
        const events: EventToAppend[] = Array.from({ length: count }, (_, k) => ({
          id: uuidv7(),
          type: (revision + k) % 3 === 0 ? 'EmailClaimed' : 'EmailReleased',
          data: { userId: sampleUserId(i, revision + k) },
          occurredAt: new Date(Date.UTC(2026, 10, 1, 0, 0, revision + k)),
        }));
        return store.appendToStream(stream, events, revision === 0 ? 'no_stream' : BigInt(revision - 1));
      }),
    );
  }
}

/** A distinct user id per stream and step, the same in every run. */
const sampleUserId = (stream: number, step: number) =>
  `0193a1b2-0000-7000-8000-${String(stream * 1_000 + step).padStart(12, '0')}`;

/**
 * Every row of a table, in a stable order, as plain JSON (so two snapshots compare with toEqual): by
 * `orderBy`, or without it by the whole row's text (any table, whatever its key).
 */
export async function snapshot(
  db: Kysely<Database>,
  table: keyof ReadModelTables & string,
  orderBy?: string,
) {
  const order = orderBy === undefined ? sql`${sql.table(table)}::text` : sql.ref(orderBy);
  const { rows } = await sql<
    Record<string, unknown>
  >`SELECT * FROM ${sql.table(table)} ORDER BY ${order}`.execute(db);
  return JSON.parse(JSON.stringify(rows)) as unknown[];
}

export async function readEntireLog(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let after: LogPosition | undefined;
  for (;;) {
    const page = await store.readAll({ after, maxCount: 1_000 });
    all.push(...page.events);
    if (page.events.length < 1_000) return all;
    after = page.next;
  }
}
