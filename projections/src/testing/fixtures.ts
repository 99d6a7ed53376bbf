import type { Database, EventStore, EventToAppend, LogPosition, RecordedEvent } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Projection } from '../projection';
import { type ReadModelTables, withReadModels } from '../read-models';

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

/** Streams as a projection test tells them: each stream id with its events, in order. */
export type StreamHistory = ReadonlyArray<
  readonly [stream: string, events: ReadonlyArray<{ type: string; data: unknown }>]
>;

/** Appends each stream of `history` as a new stream; the events one second apart from 2027-01-01 00:00 UTC. */
export async function appendHistory(store: EventStore, history: StreamHistory): Promise<void> {
  let second = 0;
  for (const [stream, events] of history) {
    const stamped = events.map((event) => ({
      id: uuidv7(),
      ...event,
      occurredAt: new Date(Date.UTC(2027, 0, 1, 0, 0, second++)),
    }));
    await store.appendToStream(stream, stamped, 'no_stream');
  }
}

/**
 * A projection's read model rebuilt by hand, as its runner would fill it: its tables emptied, then the
 * log's events it handles applied in batches of `batchSize`, each batch `times` times over in a
 * transaction of its own (2: every event delivered twice).
 */
export async function applyInBatches(
  db: Kysely<Database>,
  store: EventStore,
  projection: Projection,
  { batchSize, times }: { batchSize: number; times: number },
): Promise<void> {
  await sql`TRUNCATE ${sql.join(projection.tables.map((table) => sql.table(table)))}`.execute(db);
  const handled = projection.handles;
  const events = (await readEntireLog(store)).filter(
    (event) => handled === 'all' || handled.includes(event.type),
  );
  for (let i = 0; i < events.length; i += batchSize) {
    const batch = events.slice(i, i + batchSize);
    for (let t = 0; t < times; t++) {
      await db.transaction().execute((trx) => projection.apply(withReadModels(trx), batch));
    }
  }
}
