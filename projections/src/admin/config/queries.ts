import type { Database } from '@sniplink/platform';
import type { Kysely } from 'kysely';
import { withReadModels } from '../../read-models';

export interface ConfigEntryRow {
  key: string;
  value: string;
  description: string | null;
  updatedAt: Date;
}

/** Every config entry, by key (a few dozen rows: the table is read whole). */
export async function configEntries(db: Kysely<Database>): Promise<ConfigEntryRow[]> {
  return withReadModels(db)
    .selectFrom('rm_admin_config')
    .select(['key', 'value', 'description', 'updated_at as updatedAt'])
    .where('deleted', '=', false)
    .orderBy('key')
    .execute();
}

/** One entry, or undefined when the key is not set. */
export async function configEntry(db: Kysely<Database>, key: string): Promise<ConfigEntryRow | undefined> {
  return withReadModels(db)
    .selectFrom('rm_admin_config')
    .select(['key', 'value', 'description', 'updated_at as updatedAt'])
    .where('key', '=', key)
    .where('deleted', '=', false)
    .executeTakeFirst();
}
