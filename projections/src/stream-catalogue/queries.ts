import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../read-models';

export interface StreamsEndingWith {
  category: string;
  /** The type of the stream's last event. */
  lastEventType: string;
  /** Only streams whose last event is older than this. */
  before: Date;
  limit: number;
}

/** Ids of the streams of a category whose last event is of a type and older than an instant. */
export async function streamsEndingWith(
  db: Kysely<Database>,
  { category, lastEventType, before, limit }: StreamsEndingWith,
): Promise<string[]> {
  const rows = await withReadModels(db)
    .selectFrom('rm_streams')
    .select('stream_id')
    .where('category', '=', category)
    .where('last_event_type', '=', lastEventType)
    .where('last_event_at', '<', before)
    .limit(limit)
    .execute();
  return rows.map((row) => row.stream_id);
}
