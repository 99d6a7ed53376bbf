import type { ColumnType } from 'kysely';

/**
 * The platform's tables: the event store and click log (written only by their adapters), projection
 * checkpoints, and the operational tables (keys, credentials, sessions, tokens, idempotency keys). The
 * read models' tables are declared beside their projections (projections/src/<read model>/tables.ts).
 */
export interface Database {
  es_streams: EsStreamsTable;
  es_events: EsEventsTable;
  cs_partitions: CsPartitionsTable;
  cs_chunks: CsChunksTable;
  cs_publishes: CsPublishesTable;
  cs_group_offsets: CsGroupOffsetsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  projection_runs: ProjectionRunsTable;
  projection_rebuilds: ProjectionRebuildsTable;
  app_secrets: AppSecretsTable;
  user_keys: UserKeysTable;
  user_credentials: UserCredentialsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  password_reset_tokens: PasswordResetTokensTable;
  email_verification_tokens: EmailVerificationTokensTable;
  oidc_logins: OidcLoginsTable;
  idempotency_keys: IdempotencyKeysTable;
  support_urgent_notices: SupportUrgentNoticesTable;
  support_urgent_digests: SupportUrgentDigestsTable;
  link_passwords: LinkPasswordsTable;
  link_click_uses: LinkClickUsesTable;
}

/** The argon2 hash of a link's password; the link's `LinkPasswordSet` names the row in force. */
export interface LinkPasswordsTable {
  password_id: string;
  link_id: string;
  hash: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** Human clicks a click-limited link has redirected, taken one atomic update at a time. */
export interface LinkClickUsesTable {
  link_id: string;
  used: number;
}

/** A bigint column: read as text (exact), written as any integer. */
export type Int8 = ColumnType<string, string | number | bigint, string | number | bigint>;

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

/** Who runs each projection now and its last error (projections/src/runner.ts writes it). */
export interface ProjectionRunsTable {
  name: string;
  holder: string | null;
  held_since: Date | null;
  failing: ColumnType<boolean, boolean | undefined, boolean>;
  last_error: string | null;
  last_error_at: Date | null;
}

/** A projection's blue/green rebuild: the new copy's position and pace; kept once done, for the console. */
export interface ProjectionRebuildsTable {
  name: string;
  version: number;
  /** building, swapping, done or failed. */
  state: string;
  commit_position: Int8;
  prepare_position: Int8;
  applied: ColumnType<string, string | number | undefined, string | number>;
  events_per_second: number | null;
  eta_seconds: number | null;
  holder: string | null;
  requested_by: string | null;
  started_at: ColumnType<Date, Date | undefined, Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  finished_at: Date | null;
  swap_ms: number | null;
  error: string | null;
}

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

/** A live API key, found by the SHA-256 of its secret; revoking it deletes the row. */
export interface ApiKeysTable {
  key_id: string;
  user_id: string;
  secret_hash: string;
  name: string;
  scopes: string[];
  hint: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
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

export interface IdempotencyKeysTable {
  owner_id: string;
  key: string;
  status: number | null;
  body: unknown;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** An urgent ticket no admins' digest has listed yet. */
export interface SupportUrgentNoticesTable {
  ticket_id: string;
  opened_at: Date;
}

/** When the admins' digest of urgent tickets last went out (one row, `admins`). */
export interface SupportUrgentDigestsTable {
  digest: string;
  last_sent_at: Date | null;
}
