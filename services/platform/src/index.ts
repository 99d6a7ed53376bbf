export { KafkaClickStream } from './clickstream/kafka';
export * from './clickstream/port';
export { PostgresClickStream } from './clickstream/postgres';
export * from './config';
export type { Broadcast, ExclusiveLocks, HeldLock } from './coordination';
export { appSecret, Keyring, keyedHash } from './crypto/keyring';
export { PgAdvisoryLocks } from './db/advisory-locks';
export { connectDatabase, type Db, withDatabaseName } from './db/database';
export { migrateToLatest } from './db/migrate';
export { platformMigrations } from './db/migrations/index';
export { PgNotifications, Wakeup } from './db/notifications';
export type { Database, Int8 } from './db/schema';
export { isDatabaseUnavailable } from './db/unavailable';
export { currentProcessRecord, isOwnerAlive, type OwnerRecord } from './embedded/ownership';
export {
  type CommandChannel,
  type CommandContext,
  channelOf,
  currentCommandContext,
  enterChannel,
  identifyActor,
  runAs,
} from './eventstore/command-context';
export {
  type CommandResult,
  ConcurrencyExhaustedError,
  type HandleOptions,
  handleCommand,
  KeyedMutex,
  loadState,
} from './eventstore/command-handler';
export {
  type CommandPipeline,
  commandHandler,
  type PipelineCall,
  type PipelineDeps,
  type PipelineFeature,
  type PipelineResult,
} from './eventstore/command-pipeline';
export { EventStoreDbEventStore } from './eventstore/eventstoredb';
export { InMemoryEventStore } from './eventstore/in-memory';
export * from './eventstore/port';
export { type EventRow, type ImportedEvent, PostgresEventStore } from './eventstore/postgres';
export type { ReadModel, ReadModelWaiter } from './eventstore/read-model-waiter';
export { idsOutOfMetadata, metadataWithIds } from './eventstore/stored-events';
export { createLogger, type Logger, type LogLevel } from './logging';
export { createMailer, type Mailer, type MailMessage, OutboxMailer, SmtpMailer } from './mail';
export {
  databaseStartError,
  EXIT_CODES,
  type ExitCode,
  listenStartError,
  MigrationError,
  StartupError,
} from './startup';
export { type Clock, type FixedClock, fixedClock, systemClock } from './time/clock';
export { type IdSource, sequentialIds, uuidV7Ids } from './time/ids';
