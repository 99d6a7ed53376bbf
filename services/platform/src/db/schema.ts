import type { ColumnType, Selectable } from 'kysely';

/**
 * Every table the app's Postgres holds. Event store and click log tables are written only by their
 * adapters; `rm_*` tables are read models written only by projections.
 */
export interface Database {
  es_streams: EsStreamsTable;
  es_events: EsEventsTable;
  cs_partitions: CsPartitionsTable;
  cs_chunks: CsChunksTable;
  cs_publishes: CsPublishesTable;
  cs_group_offsets: CsGroupOffsetsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  rm_streams: RmStreamsTable;
  app_secrets: AppSecretsTable;
  user_keys: UserKeysTable;
  user_credentials: UserCredentialsTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  email_verification_tokens: EmailVerificationTokensTable;
  oidc_logins: OidcLoginsTable;
  rm_users: RmUsersTable;
  rm_links: RmLinksTable;
  idempotency_keys: IdempotencyKeysTable;
  rm_click_buckets: RmClickBucketsTable;
  rm_click_labels: RmClickLabelsTable;
  rm_link_clicks: RmLinkClicksTable;
  rm_click_rollup: RmClickRollupTable;
  click_consumer_offsets: ClickConsumerOffsetsTable;
}

type Int8 = ColumnType<string, string | number | bigint, string | number | bigint>;

export interface EsStreamsTable {
  stream_id: string;
  revision: Int8;
}

export interface EsEventsTable {
  transaction_id: ColumnType<string, never, never>;
  position: ColumnType<string, never, never>;
  event_id: string;
  stream_id: string;
  revision: Int8;
  type: string;
  data: unknown;
  metadata: unknown;
  actor_id: string | null;
  occurred_at: ColumnType<Date, Date | string, never>;
  schema_version: ColumnType<number, number | undefined, never>;
}

export interface CsPartitionsTable {
  partition: number;
  next_offset: Int8;
}

/** Consecutive offsets of one partition from one publish: `messages` is `[[key, value], ...]` as JSON text. */
export interface CsChunksTable {
  partition: number;
  first_offset: Int8;
  last_offset: Int8;
  messages: string;
  published_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface CsPublishesTable {
  publish_id: string;
  published_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface CsGroupOffsetsTable {
  group_id: string;
  partition: number;
  next_offset: Int8;
}

export interface ProjectionCheckpointsTable {
  name: string;
  version: number;
  commit_position: Int8;
  prepare_position: Int8;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface RmStreamsTable {
  stream_id: string;
  category: string;
  last_revision: Int8;
  event_count: Int8;
  last_event_type: string;
  first_event_at: Date;
  last_event_at: Date;
}

export type StreamRow = Selectable<RmStreamsTable>;

export interface AppSecretsTable {
  name: string;
  value: Buffer;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface UserKeysTable {
  user_id: string;
  key: Buffer;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface UserCredentialsTable {
  user_id: string;
  password_hash: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  user_agent: string | null;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
}

export interface EmailVerificationTokensTable {
  token_hash: string;
  user_id: string;
  /** The address the link was mailed to (keyed hash): a link proves nothing about another address. */
  email_hash: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
}

export interface OidcLoginsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  return_to: string;
  expires_at: Date;
}

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

export interface RmLinksTable {
  link_id: string;
  owner_id: string;
  code: string;
  code_lower: string;
  original_url: string;
  title: string | null;
  origin: string;
  created_at: Date;
  updated_at: Date;
  deleted: ColumnType<boolean, boolean | undefined, boolean>;
  last_revision: Int8;
}

export type LinkRow = Selectable<RmLinksTable>;

export interface IdempotencyKeysTable {
  owner_id: string;
  key: string;
  status: number | null;
  body: unknown;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** Hourly click counts per dimension ('total' | 'device' | 'referrer' | 'country' | 'browser' | 'os'). */
export interface RmClickBucketsTable {
  link_id: string;
  hour: ColumnType<Date, Date | string, Date | string>;
  dimension: string;
  label: string;
  clicks: Int8;
}

/** All-time click counts per label, of the clicks in hours before `rm_click_rollup.labels_through`. */
export interface RmClickLabelsTable {
  link_id: string;
  dimension: string;
  label: string;
  clicks: Int8;
}

export interface RmLinkClicksTable {
  link_id: string;
  clicks: Int8;
  bot_clicks: Int8;
  last_click_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

/** One row: the hour up to which (excluded) the hourly buckets are rolled up into rm_click_labels. */
export interface RmClickRollupTable {
  singleton: ColumnType<boolean, boolean | undefined, never>;
  labels_through: ColumnType<Date, Date | string, Date | string>;
}

export interface ClickConsumerOffsetsTable {
  consumer: string;
  partition: number;
  next_offset: Int8;
}
