import type { Database, EventStore, EventToAppend, LogPosition, RecordedEvent } from '@sniplink/platform';
import { type Kysely, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';

/** Appends `streams` streams of `perStream` events each, in appends of a few events, round-robin. */
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
          type: (revision + k) % 3 === 0 ? 'SomethingCreated' : 'SomethingChanged',
          data: { stream: i, step: revision + k },
          occurredAt: new Date(Date.UTC(2026, 10, 1, 0, 0, revision + k)),
        }));
        return store.appendToStream(stream, events, revision === 0 ? 'no_stream' : BigInt(revision - 1));
      }),
    );
  }
}

/** Every row of a table, in a stable order, as plain JSON (so two snapshots compare with toEqual). */
export async function snapshot(db: Kysely<Database>, table: keyof Database & string, orderBy: string) {
  const { rows } = await sql<
    Record<string, unknown>
  >`SELECT * FROM ${sql.table(table)} ORDER BY ${sql.ref(orderBy)}`.execute(db);
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
