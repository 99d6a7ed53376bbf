import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { FREE_LINK_LIMIT, PRO_MONTHLY_LINK_LIMIT } from '@sniplink/contracts';
import { z } from 'zod';
import type { LogLevel } from './logging';

const port = z.coerce
  .number({ error: 'must be a whole number between 0 and 65535' })
  .int('must be a whole number between 0 and 65535')
  .min(0, 'must be a whole number between 0 and 65535')
  .max(65535, 'must be a whole number between 0 and 65535');
const positiveInt = (max: number) => {
  const message = `must be a whole number between 1 and ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message);
};
const wholeNumber = (max: number) => {
  const message = `must be a whole number between 0 and ${max}`;
  return z.coerce.number({ error: message }).int(message).min(0, message).max(max, message);
};
const postgresUrl = z
  .string()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// or postgresql:// URL');
const trustProxy = z.string().transform((value, context): TrustProxy => {
  const parsed = parseTrustProxy(value);
  if (parsed === undefined) {
    context.addIssue({
      code: 'custom',
      message:
        'must be false, a number of proxy hops (e.g. 1), a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1), or true',
    });
    return z.NEVER;
  }
  return parsed;
});
/** An IANA time zone name (`UTC`, `Europe/Paris`), as Node's Intl and PostgreSQL both know them. */
const timeZone = z
  .string()
  .refine(isTimeZoneName, 'must be an IANA time zone name such as UTC, Europe/Paris or America/New_York');

function isTimeZoneName(value: string): boolean {
  // Names only: offsets ("+03:00") and POSIX rules ("UTC+3", whose sign PostgreSQL reads backwards) are not.
  if (!/^[A-Za-z][A-Za-z0-9_/-]*(?:[+-]\d{1,2})?$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * Every environment variable the app reads, validated once at start-up. The configuration table in
 * docs/configuration.md is written from this schema: keep the two together.
 */
/** Connections an app keeps to the embedded server when DB_POOL_SIZE does not say. */
const EMBEDDED_POOL_SIZE = 6;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: httpUrl.optional(),
  DATABASE_URL: postgresUrl.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DB_POOL_SIZE: positiveInt(500).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  EVENT_STORE: z.enum(['postgres', 'eventstoredb']).default('postgres'),
  // The client's schemes (kurrentdb://, kurrent://, kdb://) and EventStoreDB's older esdb://, each also +discover.
  ESDB_URL: z
    .string()
    .regex(/^(esdb|kurrentdb|kurrent|kdb)(\+discover)?:\/\//, 'must be a kurrentdb:// or esdb:// URL')
    .optional(),
  CLICK_STREAM: z.enum(['postgres', 'kafka']).default('postgres'),
  KAFKA_BROKERS: z.string().min(1).optional(),
  // Kafka's legal topic names: up to 249 of letters, digits, '.', '_' and '-'.
  KAFKA_TOPIC: z
    .string()
    .regex(/^[a-zA-Z0-9._-]{1,249}$/, "must be a Kafka topic name (letters, digits, '.', '_', '-')")
    .default('clicks'),
  CLICK_PARTITIONS: positiveInt(256).default(8),
  CLICK_BUFFER_CAPACITY: positiveInt(10_000_000).default(100_000),
  CLICK_LOG_RETENTION_DAYS: wholeNumber(36_500).default(7),
  CLICK_SPILL_MAX_MB: wholeNumber(1_048_576).default(512),
  EMBEDDED_PG_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'must be a valid Unix user name')
    .default('sniplink-pg'),
  PROJECTIONS: z.enum(['on', 'off']).default('on'),
  TRUST_PROXY: trustProxy.default({ kind: 'none' }),
  REQUEST_TIMEOUT_MS: positiveInt(3_600_000).default(30_000),
  REDIRECT_FAST_PATH: z.enum(['on', 'off']).default('on'),
  // Unset: on when METRICS_TOKEN is set, else off (GET /metrics is then a 404).
  METRICS: z.enum(['on', 'off']).optional(),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 visible ASCII characters (no spaces)')
    .optional(),
  ACCESS_LOG: z.enum(['off', 'errors', 'all']).default('errors'),
  ADMIN_EMAILS: z.string().default(''),
  TIME_ZONE: timeZone.default('UTC'),
  SESSION_IDLE_MINUTES: positiveInt(525_600).default(7 * 24 * 60),
  SESSION_MAX_DAYS: positiveInt(3_650).default(30),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(1_000).default(5),
  LOGIN_MAX_FAILURES_PER_IP: positiveInt(100_000).default(50),
  LOGIN_FAILURE_WINDOW_SECONDS: positiveInt(86_400).default(900),
  SIGNUP_MAX_PER_IP: positiveInt(1_000_000).default(10),
  SIGNUP_WINDOW_SECONDS: positiveInt(604_800).default(3_600),
  DEMO_MAX_PER_VISITOR: positiveInt(10_000).default(5),
  FREE_LINK_LIMIT: positiveInt(1_000_000).default(FREE_LINK_LIMIT),
  PRO_LINK_LIMIT: positiveInt(1_000_000).default(PRO_MONTHLY_LINK_LIMIT),
  DEMO_MAX_PER_IP: positiveInt(1_000_000).default(20),
  DEMO_MAX_REQUESTS_PER_MINUTE: positiveInt(1_000_000).default(30),
  CODE_CHANGES_PER_DAY: positiveInt(100_000).default(20),
  WEBHOOK_RETRY_BASE_MS: positiveInt(3_600_000).default(30_000),
  WEBHOOK_RETRY_FOR_MS: positiveInt(7 * 86_400_000).default(86_400_000),
  WEBHOOK_CLICK_WINDOW_MS: positiveInt(3_600_000).default(60_000),
  WRITE_LIMIT_SCALE: z.coerce
    .number({ error: 'must be a number above 0, at most 1000' })
    .positive('must be a number above 0, at most 1000')
    .max(1_000, 'must be a number above 0, at most 1000')
    .default(1),
  OIDC_ISSUER: httpUrl.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Sniplink <no-reply@localhost>'),
  // Unset: Stripe with STRIPE_SECRET_KEY, else off in production and the local test checkout elsewhere.
  PAYMENTS: z.enum(['off', 'stripe', 'local']).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\S+$/, 'must be a Stripe secret key (sk_… or rk_…)')
    .optional(),
  // Price ids (price_…; an old Plan's id, which may be any name, works too).
  STRIPE_PRICE_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_YEARLY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, "must be a webhook signing secret (whsec_…, from Stripe's webhook endpoint)")
    .optional(),
  // The browser's key for Stripe's Payment Element (premium slugs' card form); public by design.
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_\S+$/, 'must be a Stripe publishable key (pk_…)')
    .optional(),
});

/** Rules across variables, checked on the raw values so they are reported alongside the others. */
function missingCompanions(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (env.EVENT_STORE === 'eventstoredb' && !env.ESDB_URL) {
    problems.push('ESDB_URL: is required when EVENT_STORE=eventstoredb');
  }
  if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID)
    problems.push('OIDC_CLIENT_ID: is required when OIDC_ISSUER is set');
  if (env.CLICK_STREAM === 'kafka' && !env.KAFKA_BROKERS) {
    problems.push('KAFKA_BROKERS: is required when CLICK_STREAM=kafka');
  }
  const stripeCompanions = ['STRIPE_PRICE_MONTHLY', 'STRIPE_PRICE_YEARLY', 'STRIPE_WEBHOOK_SECRET'];
  if (env.PAYMENTS === 'stripe' && !env.STRIPE_SECRET_KEY) {
    problems.push('STRIPE_SECRET_KEY: is required when PAYMENTS=stripe');
  } else if (env.STRIPE_SECRET_KEY) {
    for (const name of stripeCompanions.filter((name) => !env[name]))
      problems.push(`${name}: is required when STRIPE_SECRET_KEY is set`);
  } else if (env.STRIPE_PRICE_MONTHLY || env.STRIPE_PRICE_YEARLY) {
    // Prices without the key would quietly leave payments on the local test checkout.
    problems.push('STRIPE_SECRET_KEY: is required when a STRIPE_PRICE_* is set');
  }
  return problems;
}

/** Hosts that mean "this machine" (loopback) or "every interface": a browser here reaches them as localhost. */
const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|0\.0\.0\.0|::)$/;

/**
 * The address the app names itself by when PUBLIC_URL is not set: in short links, the checkout's and the
 * portal's returns, mails, and the start-up log. One address for all of them, because the session cookie
 * belongs to one host: a user sent back to `localhost` after signing in on `127.0.0.1` arrives signed
 * out. Listening on this machine (or on every interface), that address is `http://localhost:PORT`;
 * listening on one other address, it is that address.
 */
export function defaultPublicUrl(host: string, port: number): string {
  if (LOCAL_HOST.test(host)) return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export interface Config {
  nodeEnv: 'development' | 'test' | 'production';
  port: number;
  host: string;
  publicUrl: string;
  /** PUBLIC_URL as the operator set it (pages' og:url and canonical link); absent when defaulted. */
  canonicalUrl: string | undefined;
  /** Absent: the embedded default (an embedded PostgreSQL server in `dataDir`). */
  databaseUrl: string | undefined;
  dataDir: string;
  dbPoolSize: number;
  logLevel: LogLevel;
  eventStore: { kind: 'postgres' } | { kind: 'eventstoredb'; url: string };
  clickStream:
    | { kind: 'postgres'; partitions: number }
    /** `partitions`: those of a topic the stream creates; an existing topic keeps its own count. */
    | { kind: 'kafka'; brokers: string[]; topic: string; partitions: number };
  /** Clicks a redirecting process holds while the click stream is down or slow; past it they are dropped. */
  clickBufferCapacity: number;
  /** Days a counted click stays in the click log; 0 keeps every click. */
  clickLogRetentionDays: number;
  /**
   * Bytes of clicks a redirecting process may write to DATA_DIR/click-spill/ while the click stream cannot
   * take them (replayed once it can); 0: no spill, clicks wait in the buffer only.
   */
  clickSpillMaxBytes: number;
  embeddedPgUser: string;
  runProjections: boolean;
  /** Which hops in front of the app are its own proxies: the client is the right-most hop that is not. */
  trustProxy: TrustProxy;
  /** A request whose head and body have not fully arrived this long after they began is answered 408. */
  requestTimeoutMs: number;
  /** REDIRECT_FAST_PATH: whether cached links are redirected before Fastify (off: the Fastify route alone). */
  redirectFastPath: 'on' | 'off';
  /**
   * `GET /metrics` (Prometheus' text format): absent when off (METRICS=off, or unset without a token);
   * `token`: the bearer token a scrape must send (METRICS_TOKEN).
   */
  metrics: { token: string | undefined } | undefined;
  /** ACCESS_LOG: a log line per request: none, the failed ones (5xx, and 4xx but 404), or every one. */
  accessLog: AccessLog;
  /** Normalised (lower-case) e-mail addresses whose accounts are admins. */
  adminEmails: string[];
  /** Where the admin Overview's "today" and "this month" begin (TIME_ZONE, an IANA name; default UTC). */
  timeZone: string;
  session: { idleMinutes: number; maxDays: number };
  /**
   * Failed sign-ins per window: `perAccount` from one address on one account (then 429 for that pair; and
   * past it, across all addresses, every sign-in on the account is slowed down), `perIp` from one address.
   */
  loginLimits: { perAccount: number; perIp: number; windowSeconds: number };
  /** Sign-up attempts per client address per window (then 429). */
  signupLimits: { perIp: number; windowSeconds: number };
  /** Demo links per visitor and per client address per 24 h; demo requests per address per minute. */
  demoLimits: { perVisitor: number; perIp: number; requestsPerMinute: number };
  /**
   * The link allowances while the admin has not set them (`links.free_limit`, `links.pro_monthly_limit`):
   * links a Free account holds, links a Pro account creates a UTC month. FREE_LINK_LIMIT and PRO_LINK_LIMIT,
   * else the built-in 5 and 500.
   */
  linkLimitDefaults: { free: number; proMonthly: number };
  /** Changes of a link's code to a new code, per account per 24 h. */
  codeChangesPerDay: number;
  /**
   * Webhook deliveries: the first retry's wait (doubling after each failure), how long an event is retried
   * before its endpoint is disabled, and the window over which one link's clicks make one `link.clicked`.
   */
  webhooks: { retryBaseMs: number; retryForMs: number; clickWindowMs: number };
  /** Every per-user limit of a signed-in state change multiplied by this (each still at least 1). */
  writeLimitScale: number;
  /** Sign-in through an OpenID Connect provider; absent: local accounts only. */
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
  /** Absent: mail is written to the log and DATA_DIR/outbox/. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * Pro's and premium slugs' payments, as PAYMENTS says; unset: Stripe when STRIPE_SECRET_KEY is set (the
   * price of each plan and the webhook endpoint's signing secret required with it), else `off` in
   * production (`defaulted`: the start-up log says so) and the local test checkout, where no money moves,
   * elsewhere. The local checkout is refused in production (`refuseTestPaymentsInProduction`). `off`: no
   * purchases; plans are an admin's to set. `webhookSecret` absent: one generated once and kept in
   * DATA_DIR/webhook-secret.
   */
  payments:
    | {
        kind: 'stripe';
        secretKey: string;
        prices: Record<'monthly' | 'yearly', string>;
        webhookSecret: string;
        /** STRIPE_PUBLISHABLE_KEY: premium slugs' card form (Stripe's Payment Element) needs it. */
        publishableKey: string | null;
      }
    | { kind: 'local'; webhookSecret: string | undefined }
    | { kind: 'off'; defaulted: boolean };
}

export type AccessLog = 'off' | 'errors' | 'all';

/**
 * TRUST_PROXY. The client address is read from X-Forwarded-For right to left (the socket's peer first),
 * skipping the proxies trusted here; the first hop that is not one is the client. `every` is the old
 * `true`: every hop is trusted, so the left-most address wins, which any client can write.
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; addresses: string[] }
  | { kind: 'every' };

/** The TRUST_PROXY forms, or undefined for a value that is none of them. */
function parseTrustProxy(value: string): TrustProxy | undefined {
  const text = value.trim();
  if (text === 'false') return { kind: 'none' };
  if (text === 'true') return { kind: 'every' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) return undefined;
    return hops === 0 ? { kind: 'none' } : { kind: 'hops', hops };
  }
  const addresses = text.split(',').map((address) => address.trim());
  if (addresses.some((address) => address === '')) return undefined;
  try {
    // The parser that will apply the list (Fastify's, and the redirect's) checks it here.
    proxyAddr.compile(addresses);
  } catch {
    return undefined;
  }
  return { kind: 'addresses', addresses };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the environment; throws a ConfigError naming every bad variable (values are never echoed). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(defined);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...missingCompanions(defined),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? defaultPublicUrl(e.HOST, e.PORT),
    canonicalUrl: e.PUBLIC_URL,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    // The embedded server serves this one process, whose redirects do not query it: a few connections
    // keep its memory small. An operator's server takes the usual pool.
    dbPoolSize: e.DB_POOL_SIZE ?? (e.DATABASE_URL ? 20 : EMBEDDED_POOL_SIZE),
    logLevel: e.LOG_LEVEL,
    eventStore:
      e.EVENT_STORE === 'eventstoredb'
        ? { kind: 'eventstoredb', url: e.ESDB_URL ?? '' }
        : { kind: 'postgres' },
    clickStream:
      e.CLICK_STREAM === 'kafka'
        ? {
            kind: 'kafka',
            brokers: (e.KAFKA_BROKERS ?? '').split(',').map((broker) => broker.trim()),
            topic: e.KAFKA_TOPIC,
            partitions: e.CLICK_PARTITIONS,
          }
        : { kind: 'postgres', partitions: e.CLICK_PARTITIONS },
    clickBufferCapacity: e.CLICK_BUFFER_CAPACITY,
    clickLogRetentionDays: e.CLICK_LOG_RETENTION_DAYS,
    clickSpillMaxBytes: e.CLICK_SPILL_MAX_MB * 1024 * 1024,
    embeddedPgUser: e.EMBEDDED_PG_USER,
    runProjections: e.PROJECTIONS === 'on',
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    redirectFastPath: e.REDIRECT_FAST_PATH,
    metrics:
      (e.METRICS ?? (e.METRICS_TOKEN ? 'on' : 'off')) === 'on' ? { token: e.METRICS_TOKEN } : undefined,
    accessLog: e.ACCESS_LOG,
    adminEmails: e.ADMIN_EMAILS.split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    timeZone: e.TIME_ZONE,
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, maxDays: e.SESSION_MAX_DAYS },
    loginLimits: {
      perAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perIp: e.LOGIN_MAX_FAILURES_PER_IP,
      windowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    signupLimits: { perIp: e.SIGNUP_MAX_PER_IP, windowSeconds: e.SIGNUP_WINDOW_SECONDS },
    demoLimits: {
      perVisitor: e.DEMO_MAX_PER_VISITOR,
      perIp: e.DEMO_MAX_PER_IP,
      requestsPerMinute: e.DEMO_MAX_REQUESTS_PER_MINUTE,
    },
    linkLimitDefaults: { free: e.FREE_LINK_LIMIT, proMonthly: e.PRO_LINK_LIMIT },
    codeChangesPerDay: e.CODE_CHANGES_PER_DAY,
    webhooks: {
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryForMs: e.WEBHOOK_RETRY_FOR_MS,
      clickWindowMs: e.WEBHOOK_CLICK_WINDOW_MS,
    },
    writeLimitScale: e.WRITE_LIMIT_SCALE,
    oidc: e.OIDC_ISSUER
      ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID ?? '', clientSecret: e.OIDC_CLIENT_SECRET }
      : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    payments: paymentsOf(e),
  };
}

function paymentsOf(e: z.infer<typeof envSchema>): Config['payments'] {
  const kind = e.PAYMENTS ?? (e.STRIPE_SECRET_KEY ? 'stripe' : e.NODE_ENV === 'production' ? 'off' : 'local');
  if (kind === 'off') return { kind, defaulted: e.PAYMENTS === undefined };
  if (kind === 'local') return { kind, webhookSecret: e.STRIPE_WEBHOOK_SECRET };
  return {
    kind,
    secretKey: e.STRIPE_SECRET_KEY ?? '',
    prices: { monthly: e.STRIPE_PRICE_MONTHLY ?? '', yearly: e.STRIPE_PRICE_YEARLY ?? '' },
    webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
    publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? null,
  };
}

/**
 * The app's payments on the local test checkout take no money: a production app refuses to start on it.
 * (Only the app takes payments: the redirect and the CLIs start without Stripe.)
 */
export function refuseTestPaymentsInProduction(config: Config): void {
  if (config.nodeEnv === 'production' && config.payments.kind === 'local') {
    throw new ConfigError([
      'PAYMENTS: local is refused when NODE_ENV=production: the local test checkout takes no money; set PAYMENTS=stripe (with STRIPE_SECRET_KEY) or PAYMENTS=off',
    ]);
  }
}
