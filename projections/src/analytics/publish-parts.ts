import type { ConsumedMessage, Database } from '@sniplink/platform';
import { type Kysely, sql, type Transaction } from 'kysely';
import { arrayLiteral } from './counters';

/**
 * Counting a publish re-sent under the same id once (docs/architecture.md, "Analytics"). Kafka may store
 * such a publish twice (the click stream's port, `PublishOptions.id`), each copy's messages in one piece
 * on each partition, every message carrying its publish id, its `index` and the `count` of that piece.
 * The consumer keeps, per partition and publish id, where the first copy it met ends (first offset +
 * count): a message below that end belongs to that copy and is counted, one at or past it is a later copy
 * and is skipped. These ends are written with the counters and offsets, in their transaction
 * (`click_publishes_counted`), and looked up once per batch for the ids memory does not hold.
 */

/** Partition -> publish id -> the offset its counted copy ends before. */
export type PartEnds = Map<number, Map<string, bigint>>;

/** How long the parts counted are remembered: the port promises a day for publish ids. */
export const PART_RETENTION_MS = 86_400_000;

/**
 * The publish ids of a partition's messages (a piece is contiguous, so consecutive repeats are skipped);
 * undefined when none carries one (the PostgreSQL stream stores a re-sent publish once, and says nothing).
 */
export function publishIdsOf(messages: readonly ConsumedMessage[]): Set<string> | undefined {
  let ids: Set<string> | undefined;
  let last: string | undefined;
  for (const message of messages) {
    const id = message.publish?.id;
    if (id === undefined || id === last) continue;
    last = id;
    ids ??= new Set();
    ids.add(id);
  }
  return ids;
}

/**
 * Per message, whether it belongs to the copy of its publish that is counted. `known` holds the ends
 * met so far (stored, pending, or of this batch); a first copy adds its end to it and to `added`.
 */
export class PartFilter {
  private lastId: string | undefined;
  private lastEnd = 0n;

  constructor(
    private readonly known: Map<string, bigint>,
    readonly added: Map<string, bigint> = new Map(),
  ) {}

  counts(message: ConsumedMessage): boolean {
    const part = message.publish;
    if (part === undefined) return true;
    if (part.id !== this.lastId) {
      let end = this.known.get(part.id);
      if (end === undefined) {
        end = message.offset - BigInt(part.index) + BigInt(part.count);
        this.known.set(part.id, end);
        this.added.set(part.id, end);
      }
      this.lastId = part.id;
      this.lastEnd = end;
    }
    return message.offset < this.lastEnd;
  }
}

/** The stored ends of these publish ids on `partition` (absent: not counted, or forgotten). */
export async function storedPartEnds(
  db: Kysely<Database>,
  partition: number,
  ids: readonly string[],
): Promise<Map<string, bigint>> {
  const { rows } = await sql<{ publish_id: string; end_offset: string }>`
    SELECT publish_id, end_offset::text AS end_offset FROM click_publishes_counted
    WHERE partition = ${partition} AND publish_id = ANY(${ids}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.publish_id, BigInt(row.end_offset)]));
}

/** Records the parts a flush counted, in its transaction: one statement, none when there are none. */
export async function storePartEnds(trx: Transaction<Database>, parts: PartEnds): Promise<void> {
  const partitions: number[] = [];
  const ids: string[] = [];
  const ends: string[] = [];
  for (const [partition, ofPartition] of parts) {
    for (const [id, end] of ofPartition) {
      partitions.push(partition);
      ids.push(id);
      ends.push(String(end));
    }
  }
  if (ids.length === 0) return;
  // A conflict would mean a part counted twice: the insert fails, and the flush with it.
  await sql`
    INSERT INTO click_publishes_counted (partition, publish_id, end_offset)
    SELECT * FROM unnest(${arrayLiteral(partitions)}::int[], ${ids}::text[], ${arrayLiteral(ends)}::bigint[])
  `.execute(trx);
}

/**
 * Forgets the parts counted before `before`; returns how many. A part the stored offsets stop inside may
 * go too: the rest of its copy comes with the same id, index and count, and gives the same end again.
 */
export async function forgetPartEnds(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await sql`DELETE FROM click_publishes_counted WHERE counted_at < ${before}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
