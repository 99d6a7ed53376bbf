import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  AccountService,
  ApiKeyService,
  ApiKeyStore,
  CodeChangeThrottle,
  DemoService,
  DemoThrottle,
  LinkService,
  LiveModeration,
  LiveSettings,
  LoginThrottle,
  linkRedirectControls,
  postgresRateLimiters,
  type ReadinessCheck,
  type Registry,
  SessionStore,
} from '@sniplink/api';
import {
  appSecret,
  type ClickStream,
  type Clock,
  type Config,
  connectDatabase,
  createMailer,
  type Db,
  databaseStartError,
  type EventStore,
  EventStoreDbEventStore,
  EXIT_CODES,
  type ExclusiveLocks,
  encodePosition,
  type IdSource,
  Keyring,
  type Logger,
  type Mailer,
  migrateToLatest,
  PgAdvisoryLocks,
  PgNotifications,
  PostgresEventStore,
  runAs,
  StartupError,
  systemClock,
  uuidV7Ids,
} from '@sniplink/platform';
import { type EmbeddedServerStatus, startEmbeddedPostgres } from '@sniplink/platform/embedded';
import {
  CLICKS_PROGRESS_CHANNEL,
  ClickAnalytics,
  type ClickAnalyticsDeps,
  clickCounts,
  clicksBehind,
  linkClicks,
  PROJECTION_PROGRESS_CHANNEL,
  type Projection,
  ProjectionProgress,
  ProjectionRebuilds,
  ProjectionRunner,
  projectionLag,
} from '@sniplink/projections';
import {
  type ClickBuffer,
  CODE_CHANGES_CHANNEL,
  followCodeChanges,
  LinkCache,
  type LinkControlsDeps,
  publishCodeChanges,
} from '@sniplink/redirect';
import { openClickDelivery } from './click-delivery';
import { createClickStream } from './click-stream';
import { type ClickConsumer, ClickThread } from './click-thread';
import type { ClickWorkerData } from './click-worker';
import { appProjections, eventRegistry, migrations } from './features';
import { registerAnalyticsMetrics, registerRedirectMetrics } from './metrics';

/** How long a code being given up waits for this process's clicks to reach the log; past it the code is kept. */
const CLICK_FLUSH_BEFORE_GIVING_UP_MS = 2_000;

/** What every kind of process runs on (composition.ts): the redirect's parts, its health, and its stop. */
export interface ProcessRuntime {
  config: Config;
  linkCache: LinkCache;
  clickBuffer: ClickBuffer;
  /** What the redirect's link controls (password, click limit) run on. */
  linkControls: Omit<LinkControlsDeps, 'secureCookie'>;
  readiness: Record<string, ReadinessCheck>;
  /** Where the database is: "embedded (…)" or the DATABASE_URL host. */
  describeDatabase: string;
  /** Stops everything, in reverse order of starting. */
  stop(onStep?: (step: string) => void): Promise<void>;
  /** For an exit without a clean stop: an embedded server this process started shuts down on its own. */
  abandon(): void;
  /** Adds this process's figures to `/metrics`' registry, read when it is scraped. */
  registerMetrics(registry: Registry): void;
}

/** Everything a process of the app runs on, started in order and stopped in reverse. */
export interface Runtime extends ProcessRuntime {
  database: Db;
  eventStore: EventStore;
  clickStream: ClickStream;
  keyring: Keyring;
  projections: readonly Projection[];
  progress: ProjectionProgress;
  runners: ProjectionRunner[];
  /** The blue/green rebuilds this process runs (the console's, and unfinished ones where projections run). */
  rebuilds: ProjectionRebuilds;
  /** The locks that keep one runner per projection; a rebuild takes them too. */
  projectionLocks: ExclusiveLocks;
  accounts: AccountService;
  sessions: SessionStore;
  /** The API keys: every bearer call is checked against their store; an erasure revokes them. */
  apiKeys: ApiKeyService;
  /** SMTP when SMTP_URL is set, otherwise DATA_DIR/outbox/. */
  mailer: Mailer;
  links: LinkService;
  /** The landing page's demo shortener; it also claims a visitor's demo links at sign-in. */
  demo: DemoService;
  /** The admin's settings (the known config keys) in force in this process, kept current without a restart. */
  settings: LiveSettings;
  /** The admin's prohibited words and protected brands, compiled for this process's claims, kept current. */
  moderation: LiveModeration;
  /**
   * The housekeeping sweep: every 10 minutes where the projections run, each feature's part in the order
   * added (composition.ts adds them); elsewhere what is added never runs.
   */
  housekeeping: { add(sweep: () => Promise<unknown>): void };
  /**
   * The features' background workers: started at once where the projections run (elsewhere never), and
   * stopped first when the runtime stops.
   */
  workers: { add(worker: { start(): void; stop(): Promise<void> }): void };
  /** The click analytics consumer, when this process runs projections (in this thread or its own). */
  clickAnalytics: ClickConsumer | undefined;
  log: Logger;
  /** The time and the new ids every service of this process uses (the machine's clock, UUID v7). */
  clock: Clock;
  ids: IdSource;
}

/** The database server: DATABASE_URL's, or the embedded one (started, or attached to when an app runs it). */
async function openServer(config: Config, log: Logger) {
  const embedded = config.databaseUrl ? undefined : await startEmbedded(config, log);
  const connectionString = config.databaseUrl ?? embedded?.connectionString ?? '';
  return {
    connectionString,
    /** Where the database is, for a sentence about it: host:port/name (no credentials), or the socket. */
    where: embedded
      ? `the embedded PostgreSQL server (socket ${embedded.socketDir})`
      : databaseWhere(connectionString),
    describe: embedded
      ? `embedded PostgreSQL (socket ${embedded.socketDir}${embedded.owned ? '' : ', attached to a running app'})`
      : `PostgreSQL at ${new URL(connectionString).host}`,
    /** The embedded server's state (running, restarting after it died, attached); undefined on DATABASE_URL. */
    status: embedded ? () => embedded.status() : undefined,
    stop: async () => embedded?.stop(),
    abandon: () => embedded?.abandon(),
  };
}

/** The embedded server, or a start error that says where its files and log are. */
async function startEmbedded(config: Config, log: Logger) {
  try {
    return await startEmbeddedPostgres({ dataDir: config.dataDir, runAsUser: config.embeddedPgUser, log });
  } catch (error) {
    // Its log says why PostgreSQL refused to run; there is none when DATA_DIR itself could not be made.
    const serverLog = path.join(config.dataDir, 'postgres.log');
    const more = existsSync(serverLog) ? ` (PostgreSQL's log: ${serverLog})` : '';
    throw new StartupError(
      `the embedded PostgreSQL server in DATA_DIR ${config.dataDir} could not start: ${error instanceof Error ? error.message : String(error)}${more}`,
      EXIT_CODES.database,
      { cause: error },
    );
  }
}

/** DATABASE_URL without its user and password: `host:port/name`. */
function databaseWhere(connectionString: string): string {
  const url = new URL(connectionString);
  return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

/** Brings the schema up to date: the first time the process talks to its database, so its failures say so. */
async function migrate(database: Db, where: string): Promise<void> {
  try {
    await migrateToLatest(database.db, migrations);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw databaseStartError(error, where);
  }
}

/** The database and the event store alone, nothing migrated and nothing run: what backup and restore copy. */
export interface Storage {
  database: Db;
  eventStore: EventStore;
  describeDatabase: string;
  close(): Promise<void>;
}

export async function openStorage(config: Config, log: Logger): Promise<Storage> {
  const server = await openServer(config, log);
  try {
    const database = connectDatabase(server.connectionString, { poolSize: 4 });
    const notifications = new PgNotifications({ connectionString: server.connectionString });
    const eventStore = await createEventStore(config, database, notifications);
    return {
      database,
      eventStore,
      describeDatabase: server.describe,
      close: async () => {
        await eventStore.close();
        await notifications.close();
        await database.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * Ready while the database answers; on the embedded server it also says whether that runs or is being
 * restarted (not ready until the restart is through, even if the new server already answers).
 */
function databaseCheck(database: Db, embedded: (() => EmbeddedServerStatus) | undefined): ReadinessCheck {
  return async () => {
    const status = embedded?.();
    const server = status ? { embedded: status } : {};
    try {
      await database.pool.query('SELECT 1');
      return { ok: status?.state !== 'restarting', ...server };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error), ...server };
    }
  };
}

export async function startRuntime(
  config: Config,
  log: Logger,
  options: {
    /**
     * Run every projection, the click analytics consumer and the housekeeping sweeps (default:
     * PROJECTIONS); the composition root (composition.ts) says which process does.
     */
    projections?: boolean;
    /**
     * Publish clicks and run the click analytics consumer on a worker thread from this script (the
     * bundled app does); else both run on this thread (the API tests, CLIs).
     */
    clickThread?: { script: URL };
  } = {},
): Promise<Runtime> {
  const server = await openServer(config, log);
  const { connectionString } = server;
  const stopEmbedded = server.stop;
  const clock = systemClock;
  const ids = uuidV7Ids;
  try {
    const database = connectDatabase(connectionString, { poolSize: config.dbPoolSize });
    await migrate(database, server.where);
    const notifications = new PgNotifications({ connectionString });
    const eventStore = await createEventStore(config, database, notifications);
    const clickStream = createClickStream(config.clickStream, database, notifications, log);
    const keyring = new Keyring(database.db);
    const codeChanges = notifications.channel(CODE_CHANGES_CHANNEL);
    const projections = appProjections({ keyring, onCodesChanged: publishCodeChanges(codeChanges) });
    const progress = new ProjectionProgress({
      db: database.db,
      broadcast: notifications.channel(PROJECTION_PROGRESS_CHANNEL),
    });
    const locks = new PgAdvisoryLocks({ pool: database.pool });
    const deps = { db: database.db, eventStore, locks, log, progress };
    const runners =
      (options.projections ?? config.runProjections)
        ? projections.map((projection) => new ProjectionRunner(deps, projection))
        : [];
    for (const runner of runners) runner.start();
    const rebuilds = new ProjectionRebuilds(deps, projections);
    // A rebuild a crash or a stop cut short goes on where its new copy is.
    if (runners.length > 0) {
      await rebuilds
        .resumeUnfinished()
        .catch((err: unknown) => log.error({ err }, 'resuming the unfinished projection rebuilds failed'));
    }
    const sessions = new SessionStore(database.db, config.session, clock);
    const limiters = postgresRateLimiters({ pool: database.pool });
    const settings = new LiveSettings({
      db: database.db,
      progress,
      log,
      defaults: {
        demoLinksPerVisitor: config.demoLimits.perVisitor,
        freeLinkLimit: config.linkLimitDefaults.free,
        proMonthlyLinkLimit: config.linkLimitDefaults.proMonthly,
      },
    });
    await settings.start();
    const moderation = new LiveModeration({ db: database.db, progress, log });
    await moderation.start();
    const accounts = new AccountService({
      db: database.db,
      eventStore,
      keyring,
      emailSecret: await appSecret(database.db, 'email-hash'),
      sessions,
      throttle: new LoginThrottle({ limiters }, config.loginLimits),
      readModels: progress,
      adminEmails: config.adminEmails,
      settings,
      clock,
      ids,
    });
    const apiKeys = new ApiKeyService({
      eventStore,
      keyring,
      clock,
      ids,
      store: new ApiKeyStore({ db: database.db, clock, limiters, settings }),
    });
    accounts.endOnErasure((userId) => apiKeys.revokeAllOf(userId));
    // Admins named in ADMIN_EMAILS before admins were events keep their flag; a change cut in half is completed.
    await runAs('system', () => accounts.reconcileAdmins()).catch((err: unknown) =>
      log.error({ err }, 'reconciling the admins failed; the next start tries again'),
    );
    const mailer = createMailer(config, log);
    const linkCache = new LinkCache({ db: database.db });
    const linkControls = await linkRedirectControls(database);
    const unfollow = await followCodeChanges(codeChanges, linkCache);
    const consume = runners.length > 0;
    const clickThread = startClickThread(
      options.clickThread,
      clickWorkerData(config, connectionString, consume),
      log,
    );
    const clickAnalytics: ClickConsumer | undefined = consume
      ? (clickThread ??
        startClickAnalytics(config, {
          db: database.db,
          stream: clickStream,
          log,
          progress: notifications.channel(CLICKS_PROGRESS_CHANNEL),
        }))
      : undefined;
    const clicks = await openClickDelivery(config, clickThread ?? clickStream, connectionString, log);
    const clickBuffer = clicks.buffer;
    const links = new LinkService({
      db: database.db,
      eventStore,
      accounts,
      readModels: progress,
      publicUrl: config.publicUrl,
      ownOrigins: allowedOrigins(config),
      clickCounts: (linkIds) => clickCounts(database.db, linkIds),
      linkClicks: async (linkId) =>
        // This process's clicks first go to the log (a visit a moment ago is in memory for up to 100 ms).
        (await clickBuffer.flush(CLICK_FLUSH_BEFORE_GIVING_UP_MS))
          ? linkClicks(database.db, clickStream, linkId)
          : 'unconfirmed',
      codeChanges: new CodeChangeThrottle({ limiters }, config.codeChangesPerDay),
      settings,
      moderation,
      clock,
      ids,
    });
    const demo = new DemoService({
      db: database.db,
      eventStore,
      accounts,
      links,
      readModels: progress,
      throttle: new DemoThrottle({ limiters, settings }, config.demoLimits),
      moderation,
      clock,
    });
    const sweeps: Array<() => Promise<unknown>> = [];
    const workers: Array<{ start(): void; stop(): Promise<void> }> = [];
    const maintenance =
      runners.length > 0
        ? scheduleMaintenance(async () => {
            for (const sweep of sweeps) await sweep();
          }, log)
        : undefined;
    return {
      config,
      database,
      eventStore,
      clickStream,
      keyring,
      projections,
      progress,
      runners,
      rebuilds,
      projectionLocks: locks,
      accounts,
      sessions,
      apiKeys,
      mailer,
      links,
      demo,
      settings,
      moderation,
      housekeeping: { add: (sweep) => sweeps.push(sweep) },
      workers: {
        add: (worker) => {
          if (runners.length === 0) return;
          workers.push(worker);
          worker.start();
        },
      },
      linkCache,
      clickBuffer,
      linkControls,
      clickAnalytics,
      log,
      clock,
      ids,
      readiness: {
        database: databaseCheck(database, server.status),
        ...readinessChecks(database, eventStore, clickStream, projections),
        ...clicks.readiness,
      },
      describeDatabase: server.describe,
      abandon: server.abandon,
      registerMetrics: (registry) => {
        registerRedirectMetrics(registry, { clickBuffer, spill: clicks.spillStats, embedded: server.status });
        registerAnalyticsMetrics(registry, { db: database.db, eventStore, clickStream, projections });
      },
      stop: async (onStep = () => {}) => {
        clearInterval(maintenance);
        onStep('stopping the background workers');
        await Promise.all(workers.map((worker) => worker.stop()));
        settings.stop();
        moderation.stop();
        // Every click already answered with a 302 is published before anything stops (nothing lost on SIGTERM).
        onStep('publishing the buffered clicks');
        await clicks.close();
        unfollow();
        onStep('stopping the click thread');
        await (clickThread ?? clickAnalytics)?.stop();
        onStep('stopping the projection runners and rebuilds');
        await Promise.all([...runners.map((runner) => runner.stop()), rebuilds.stop()]);
        onStep('closing the event store and the click stream');
        await eventStore.close();
        await clickStream.close();
        onStep('closing the database connections');
        await notifications.close();
        await database.close();
        onStep('stopping the embedded PostgreSQL server');
        await stopEmbedded();
      },
    };
  } catch (error) {
    await stopEmbedded();
    throw error;
  }
}

/** A process that only redirects (`npm run start:redirect`): the link cache, the click buffer, the stream. */
export type RedirectRuntime = ProcessRuntime;

/**
 * The redirect on its own: no projections, no API, no event store. It reads the links read model that an
 * app process keeps current, follows its code changes, and publishes clicks to the click stream. On the
 * embedded default it attaches to the server a running app started.
 */
export async function startRedirectRuntime(
  config: Config,
  log: Logger,
  options: { clickThread?: { script: URL } } = {},
): Promise<RedirectRuntime> {
  const server = await openServer(config, log);
  try {
    const database = connectDatabase(server.connectionString, { poolSize: config.dbPoolSize });
    await migrate(database, server.where);
    const notifications = new PgNotifications({ connectionString: server.connectionString });
    const clickStream = createClickStream(config.clickStream, database, notifications, log);
    const linkCache = new LinkCache({ db: database.db });
    const linkControls = await linkRedirectControls(database);
    const unfollow = await followCodeChanges(notifications.channel(CODE_CHANGES_CHANNEL), linkCache);
    const clickThread = startClickThread(
      options.clickThread,
      clickWorkerData(config, server.connectionString, false),
      log,
    );
    const clicks = await openClickDelivery(config, clickThread ?? clickStream, server.connectionString, log);
    return {
      config,
      linkCache,
      clickBuffer: clicks.buffer,
      linkControls,
      readiness: {
        database: databaseCheck(database, server.status),
        clickStream: async () => ({ ok: true, partitions: (await clickStream.endOffsets()).size }),
        ...clicks.readiness,
      },
      describeDatabase: server.describe,
      abandon: server.abandon,
      registerMetrics: (registry) =>
        registerRedirectMetrics(registry, {
          clickBuffer: clicks.buffer,
          spill: clicks.spillStats,
          embedded: server.status,
        }),
      stop: async (onStep = () => {}) => {
        onStep('publishing the buffered clicks');
        await clicks.close();
        onStep('stopping the click thread');
        await clickThread?.stop();
        await clickStream.close();
        unfollow();
        onStep('closing the database connections');
        await notifications.close();
        await database.close();
        onStep('detaching from the embedded PostgreSQL server');
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The click thread, when the process runs from its bundle; else the click work stays on this thread. */
function startClickThread(thread: { script: URL } | undefined, workerData: ClickWorkerData, log: Logger) {
  if (!thread) return undefined;
  const clickThread = new ClickThread({ ...thread, workerData, log });
  clickThread.start();
  return clickThread;
}

function clickWorkerData(config: Config, connectionString: string, consume: boolean): ClickWorkerData {
  return {
    connectionString,
    clickStream: config.clickStream,
    logLevel: config.logLevel,
    consume,
    clickLogRetentionMs: config.clickLogRetentionDays * DAY_MS,
  };
}

/** The click analytics consumer on this thread (tests, CLIs). */
function startClickAnalytics(config: Config, deps: ClickAnalyticsDeps): ClickAnalytics {
  const analytics = new ClickAnalytics(deps, { clickLogRetentionMs: config.clickLogRetentionDays * DAY_MS });
  analytics.start();
  return analytics;
}

const DAY_MS = 24 * 60 * 60_000;

/** This site's origins: state-changing requests from any other are refused. */
export function allowedOrigins(config: Config): string[] {
  return [config.publicUrl, `http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`];
}

/**
 * The event store EVENT_STORE names. On EventStoreDB the read models, their checkpoints, the runners'
 * locks and every other table stay in PostgreSQL: only the events move.
 */
async function createEventStore(
  config: Config,
  database: Db,
  notifications: PgNotifications,
): Promise<EventStore> {
  if (config.eventStore.kind === 'eventstoredb') {
    return EventStoreDbEventStore.connect({ url: config.eventStore.url, registry: eventRegistry });
  }
  return new PostgresEventStore({ pool: database.pool, notifications, registry: eventRegistry });
}

function readinessChecks(
  database: Db,
  eventStore: EventStore,
  clickStream: ClickStream,
  projections: readonly Projection[],
): Record<string, ReadinessCheck> {
  return {
    eventStore: async () => ({ ok: true, head: encodePosition(await eventStore.headPosition()) }),
    clickStream: async () => ({ ok: true, partitions: (await clickStream.endOffsets()).size }),
    clickAnalytics: async () => {
      const behind = await clicksBehind(database.db, await clickStream.endOffsets());
      // Under full load the consumer sums up to 20 s or 500,000 clicks before it writes them: several
      // hundred thousand behind is normal at full speed; a million is a consumer that cannot keep up.
      return { ok: behind < CLICKS_BEHIND_LIMIT, behind };
    },
    projections: async () => {
      const lags = await Promise.all(
        projections.map((p) => projectionLag({ db: database.db, eventStore }, p)),
      );
      const behind = Object.fromEntries(
        lags.map((lag) => [lag.name, lag.capped ? `${lag.behind}+` : lag.behind]),
      );
      return { ok: lags.every((lag) => !lag.capped && lag.updatedAt !== null), behind };
    },
  };
}

const CLICKS_BEHIND_LIMIT = 1_000_000;

/**
 * Housekeeping every 10 minutes in a process that runs projections; a failure is logged and retried later.
 * What it appends is the system's doing (each run its own correlation id).
 */
function scheduleMaintenance(task: () => Promise<void>, log: Logger): NodeJS.Timeout {
  const timer = setInterval(() => {
    runAs('system', task).catch((err: unknown) => log.error({ err }, 'account maintenance failed'));
  }, 10 * 60_000);
  timer.unref();
  return timer;
}
