import type { Int8 } from '@sniplink/platform';
import type { ColumnType, Selectable } from 'kysely';

/**
 * The users read model's table: one row per account, written by `usersProjection`, read through
 * `./queries`. Its migrations stay in services/platform/src/db/migrations/ (`…T04-accounts`,
 * `…25T10-email-verification`), whose order is history.
 */
export type UsersTables = {
  rm_users: RmUsersTable;
};

export interface RmUsersTable {
  user_id: string;
  email: string | null;
  email_normalized: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  subscription_status: ColumnType<string, string | undefined, string>;
  subscription_plan: string | null;
  suspended: ColumnType<boolean, boolean | undefined, boolean>;
  email_verified: ColumnType<boolean, boolean | undefined, boolean>;
  erased: ColumnType<boolean, boolean | undefined, boolean>;
  links_created_this_month: ColumnType<number, number | undefined, number>;
  links_month: string | null;
  created_at: Date;
  updated_at: Date;
  last_revision: Int8;
}

export type UserRow = Selectable<RmUsersTable>;
