/**
 * The composition root: which kind of process runs which route groups, projections and consumers, and
 * what each feature's routes are given. main.ts and redirect-main.ts pick their kind, listen and stop;
 * the tests start the app the same way (test/support/api.ts).
 *
 * app (`npm start`; compose.yaml's `api` and `projections` services)
 *   routes       every feature's route group under /api/ (`featureRoutes`), `GET /s/{code}`, the web app;
 *                the local payment provider's pages (/pay/local/…) unless STRIPE_SECRET_KEY is set
 *   projections  PROJECTIONS=on (the default): every one in `allProjections`; PROJECTIONS=off: none
 *   consumers    the click analytics consumer and the housekeeping sweeps where the projections run;
 *                always the code changes that evict the redirect's cache, and the click publisher
 * redirect (`npm run start:redirect`)
 *   routes       `GET /s/{code}` and the web app's not-found page
 *   projections  none
 *   consumers    the code changes that evict the redirect's cache, and the click publisher
 *
 * There is no process of projections alone: compose.yaml's `projections` service is the app with
 * PROJECTIONS=on, its `api` replicas the app with PROJECTIONS=off. A new feature adds its route group
 * to `featureRoutes` below and its read model to `allProjections` (projections/src/index.ts).
 */
import path from 'node:path';
import {
  type AccountRoutesDeps,
  type AdminRoutesDeps,
  type AnalyticsRoutesDeps,
  AnnouncementService,
  type AppDeps,
  accountRoutes,
  adminRoutes,
  analyticsRoutes,
  announcementAdminRoutes,
  announcementRoutes,
  auditAdminRoutes,
  type BillingRoutesDeps,
  BillingService,
  billingRoutes,
  buildApp,
  CheckoutReturns,
  ConfigService,
  checkoutReturnRoutes,
  claimDemoLinksOnSignIn,
  configAdminRoutes,
  createOidcLogin,
  createPaymentProvider,
  type DeliverWebhook,
  type DemoRoutesDeps,
  demoRoutes,
  type LinkRoutesDeps,
  linkRoutes,
  marketplaceRoutes,
  OIDC_CALLBACK_PATH,
  type PaymentProvider,
  type PaymentSetup,
  PremiumPurchaseService,
  PremiumSlugService,
  postgresRateLimiters,
  premiumSlugAdminRoutes,
  type RouteGroup,
  SignupThrottle,
  type StatsAdminRoutesDeps,
  SupportMail,
  SupportService,
  statsAdminRoutes,
  supportAdminRoutes,
  supportRoutes,
  userAdminRoutes,
} from '@sniplink/api';
import { type Config, type Logger, refuseTestPaymentsInProduction } from '@sniplink/platform';
import {
  adminAuditProjection,
  adminDetailedStats,
  adminStatsSummary,
  auditHistory,
  isAdminUser,
  linkAnalytics,
  userClickTotal,
} from '@sniplink/projections';
import type { FastifyInstance } from 'fastify';
import {
  allowedOrigins,
  type ProcessRuntime,
  type RedirectRuntime,
  type Runtime,
  startRedirectRuntime,
  startRuntime,
} from './runtime';

export interface ProcessOptions {
  /** Publish (and consume) clicks on a worker thread from this script: see `clickThreadScript`. */
  clickThread?: { script: URL };
  /** The built web app to serve (`WEB_DIST_DIR`); absent: the API alone, as most tests run it. */
  webDistDir?: string;
  /** The payment provider; absent: no plans and payments routes. */
  payments?: PaymentProvider;
}

/** A started process: its HTTP app, not yet listening, and the runtime to stop after the app closes. */
export interface StartedProcess<R> {
  app: FastifyInstance;
  runtime: R;
}

/**
 * A kind of process: `startApp` or `startRedirect`. Entry points pass the function itself rather than a
 * name, so that the redirect's bundle leaves out what only the app runs (esbuild drops what is unused).
 */
export type ProcessKind = (
  config: Config,
  log: Logger,
  options: ProcessOptions,
) => Promise<StartedProcess<ProcessRuntime>>;

/** The app: every feature's routes, the redirect and the web app; with PROJECTIONS=on the projections too. */
export async function startApp(
  config: Config,
  log: Logger,
  options: ProcessOptions = {},
): Promise<StartedProcess<Runtime>> {
  // Payments that take no money are refused in production before anything starts.
  refuseTestPaymentsInProduction(config);
  const runtime = await startRuntime(config, log, {
    // Every projection in allProjections, the click analytics consumer and the housekeeping sweeps.
    projections: config.runProjections,
    clickThread: options.clickThread,
  });
  let app: FastifyInstance | undefined;
  const started = await withApp(runtime, async () => {
    // A test may hand in its own provider; otherwise STRIPE_SECRET_KEY chooses Stripe or the local checkout.
    const payments: PaymentSetup = options.payments
      ? { provider: options.payments, pages: undefined, description: `payments: ${options.payments.name}` }
      : await createPaymentProvider(config, {
          db: runtime.database.db,
          clock: runtime.clock,
          ids: runtime.ids,
          log,
          deliver: deliverToWebhookRoute(() => app),
        });
    log.info(payments.description);
    return {
      ...httpSettings(config, log, options.webDistDir),
      readiness: runtime.readiness,
      allowedOrigins: allowedOrigins(config),
      publicUrl: config.canonicalUrl,
      routes: featureRoutes(runtime, payments),
      sessions: runtime.sessions,
      writeLimits: {
        limiters: postgresRateLimiters({ pool: runtime.database.pool }),
        scale: config.writeLimitScale,
      },
      redirect: { cache: runtime.linkCache, clicks: runtime.clickBuffer },
    };
  });
  app = started.app;
  return started;
}

/**
 * The redirect on its own: no API, no projections, no event store. It reads the links read model an app
 * process keeps current and publishes clicks for that app's consumer to count.
 */
export async function startRedirect(
  config: Config,
  log: Logger,
  options: ProcessOptions = {},
): Promise<StartedProcess<RedirectRuntime>> {
  const runtime = await startRedirectRuntime(config, log, { clickThread: options.clickThread });
  return withApp(runtime, () => ({
    ...httpSettings(config, log, options.webDistDir),
    readiness: runtime.readiness,
    // No state-changing routes here: no origin is allowed one.
    allowedOrigins: [],
    redirect: { cache: runtime.linkCache, clicks: runtime.clickBuffer },
  }));
}

/**
 * The API's route groups, feature by feature, each given its part of the runtime; billing's routes take
 * `payments.provider` as their `payments`.
 */
function featureRoutes(runtime: Runtime, payments: PaymentSetup): RouteGroup[] {
  const announcements = announcementService(runtime);
  const premiumSlugs = premiumSlugService(runtime);
  const purchases = premiumPurchaseService(runtime, payments.provider);
  const support = supportService(runtime);
  return [
    (api) => accountRoutes(api, accountDeps(runtime)),
    (api) => linkRoutes(api, linkDeps(runtime)),
    (api) => analyticsRoutes(api, analyticsDeps(runtime)),
    (api) => demoRoutes(api, demoDeps(runtime)),
    (api) => billingRoutes(api, billingDeps(runtime, payments.provider, purchases)),
    (api) => checkoutReturnRoutes(api, checkoutReturnDeps(runtime, payments.provider)),
    (api) => announcementRoutes(api, { announcements, sessions: runtime.sessions }),
    (api) => marketplaceRoutes(api, { premiumSlugs, purchases, sessions: runtime.sessions }),
    (api) => supportRoutes(api, { support, sessions: runtime.sessions }),
    (api) => adminRoutes(api, adminDeps(runtime, { announcements, premiumSlugs, support })),
    // The local provider's test checkout and portal pages (none with Stripe).
    ...(payments.pages ? [payments.pages] : []),
  ];
}

/**
 * The local provider's events go to the route Stripe calls, `POST /api/webhooks/stripe`, through the app
 * itself (`inject`: no network), with the raw body and signature header as Stripe sends them.
 */
function deliverToWebhookRoute(app: () => FastifyInstance | undefined): DeliverWebhook {
  return async (rawBody, signature) => {
    const target = app();
    if (!target) throw new Error('the app is not built yet');
    const response = await target.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
      payload: rawBody,
    });
    return response.statusCode;
  };
}

/** The HTTP app on a started runtime; a runtime whose app cannot be built is stopped again. */
async function withApp<R extends { stop(): Promise<void> }>(
  runtime: R,
  deps: () => AppDeps | Promise<AppDeps>,
): Promise<StartedProcess<R>> {
  try {
    return { app: await buildApp(await deps()), runtime };
  } catch (error) {
    await runtime.stop();
    throw error;
  }
}

/** What every kind of process's HTTP app takes from the configuration alike. */
function httpSettings(config: Config, log: Logger, webDistDir: string | undefined) {
  return {
    log,
    trustProxy: config.trustProxy,
    requestTimeoutMs: config.requestTimeoutMs,
    redirectFastPath: config.redirectFastPath,
    webDistDir,
    https: servedOverHttps(config),
    stripeJs: stripePublishableKey(config) !== null,
  };
}

/** The browser's Stripe key, when Stripe takes the payments and one is set. */
const stripePublishableKey = (config: Config) =>
  config.payments.kind === 'stripe' ? config.payments.publishableKey : null;

/** The accounts routes' view of the runtime: accounts, sessions, cookie settings and the OIDC provider. */
function accountDeps(runtime: Runtime): AccountRoutesDeps {
  const { config } = runtime;
  const cookie = cookieSettings(config);
  const afterSignIn = claimDemoLinksOnSignIn(runtime.demo);
  return {
    accounts: runtime.accounts,
    sessions: runtime.sessions,
    cookie,
    signupThrottle: new SignupThrottle(
      { limiters: postgresRateLimiters({ pool: runtime.database.pool }) },
      config.signupLimits,
    ),
    afterSignIn,
    passwordReset: {
      accounts: runtime.accounts,
      db: runtime.database.db,
      mailer: runtime.mailer,
      publicUrl: config.publicUrl,
      log: runtime.log,
      clock: runtime.clock,
    },
    emailVerification: {
      accounts: runtime.accounts,
      sessions: runtime.sessions,
      db: runtime.database.db,
      mailer: runtime.mailer,
      publicUrl: config.publicUrl,
      log: runtime.log,
      clock: runtime.clock,
    },
    oidc: config.oidc
      ? createOidcLogin({
          ...config.oidc,
          redirectUri: `${config.publicUrl}${OIDC_CALLBACK_PATH}`,
          db: runtime.database.db,
          accounts: runtime.accounts,
          sessions: runtime.sessions,
          cookie,
          clock: runtime.clock,
          afterSignIn,
        })
      : undefined,
  };
}

/** The links API's view of the runtime. */
function linkDeps(runtime: Runtime): LinkRoutesDeps {
  return { links: runtime.links, sessions: runtime.sessions, db: runtime.database.db };
}

/** The analytics API's view of the runtime. */
function analyticsDeps(runtime: Runtime): AnalyticsRoutesDeps {
  const db = runtime.database.db;
  return {
    links: runtime.links,
    sessions: runtime.sessions,
    analytics: {
      linkAnalytics: (linkId) => linkAnalytics(db, linkId),
      userClickTotal: (ownerId) => userClickTotal(db, ownerId),
    },
    clock: runtime.clock,
  };
}

/** The demo's view of the runtime. */
function demoDeps(runtime: Runtime): DemoRoutesDeps {
  return { demo: runtime.demo, sessions: runtime.sessions, cookie: cookieSettings(runtime.config) };
}

/**
 * The admin console's API: every group listed here is behind the admin gate (`/api/admin`, 401 signed
 * out, 403 for a non-admin). A new tab's calls add their group here.
 */
function adminDeps(
  runtime: Runtime,
  {
    announcements,
    premiumSlugs,
    support,
  }: { announcements: AnnouncementService; premiumSlugs: PremiumSlugService; support: SupportService },
): AdminRoutesDeps {
  const { accounts, clock } = runtime;
  const db = runtime.database.db;
  const config = new ConfigService({
    db,
    eventStore: runtime.eventStore,
    readModels: runtime.progress,
    settings: runtime.settings,
    clock,
  });
  return {
    sessions: runtime.sessions,
    // The users read model's flag: one row by its key. An admin change waits for that read model before it
    // answers, so a revoked admin meets the 403 on their next call.
    isAdmin: (userId) => isAdminUser(db, userId),
    groups: [
      (admin) => statsAdminRoutes(admin, statsDeps(runtime)),
      (admin) => userAdminRoutes(admin, { accounts, db, clock }),
      (admin) => supportAdminRoutes(admin, { support }),
      (admin) => auditAdminRoutes(admin, { auditHistory: (filter) => auditHistory(db, filter) }),
      (admin) => announcementAdminRoutes(admin, { announcements }),
      (admin) => configAdminRoutes(admin, { config }),
      (admin) => premiumSlugAdminRoutes(admin, { premiumSlugs }),
    ],
    untilAudited: (position) => runtime.progress.waitFor(adminAuditProjection.name, position),
  };
}

/** The Overview's figures, read at the clock's instant; "today" begins at midnight in TIME_ZONE. */
function statsDeps(runtime: Runtime): StatsAdminRoutesDeps {
  const { db } = runtime.database;
  const { timeZone } = runtime.config;
  return {
    stats: {
      summary: (now) => adminStatsSummary(db, now),
      detailed: async (now) => ({ ...(await adminDetailedStats(db, { now, timeZone })), timeZone }),
    },
    clock: runtime.clock,
  };
}

/** Announcements: admins publish them (the Announce tab), users see theirs on the dashboard. */
function announcementService(runtime: Runtime): AnnouncementService {
  const { eventStore, accounts, clock, ids } = runtime;
  return new AnnouncementService({
    eventStore,
    db: runtime.database.db,
    readModels: runtime.progress,
    accounts,
    clock,
    ids,
  });
}

/** The premium catalogue: admins keep it (the Premium tab), the marketplace lists what is for sale. */
function premiumSlugService(runtime: Runtime): PremiumSlugService {
  const { eventStore, settings, clock, ids } = runtime;
  return new PremiumSlugService({
    eventStore,
    db: runtime.database.db,
    readModels: runtime.progress,
    settings,
    clock,
    ids,
  });
}

/**
 * Buying premium slugs: holds, the provider's payments, and their webhook events. A suspension cancels
 * the buyer's open payments and releases their holds.
 */
function premiumPurchaseService(runtime: Runtime, payments: PaymentProvider): PremiumPurchaseService {
  const { eventStore, settings, clock, ids, log } = runtime;
  const purchases = new PremiumPurchaseService({
    publishableKey: stripePublishableKey(runtime.config),
    eventStore,
    db: runtime.database.db,
    readModels: runtime.progress,
    settings,
    payments,
    log,
    clock,
    ids,
    ownOrigins: allowedOrigins(runtime.config),
  });
  runtime.accounts.endOnSuspension((userId) => purchases.cancelOpenPurchases(userId));
  return purchases;
}

/** Support tickets: users open and follow theirs, admins answer them in the Support tab; mails go out. */
function supportService(runtime: Runtime): SupportService {
  const { eventStore, accounts, keyring, clock, ids, log } = runtime;
  const db = runtime.database.db;
  const mail = new SupportMail({
    mailer: runtime.mailer,
    digest: runtime.urgentTickets,
    accounts,
    publicUrl: runtime.config.publicUrl,
    log,
  });
  return new SupportService({
    eventStore,
    db,
    readModels: runtime.progress,
    keyring,
    accounts,
    mail,
    clock,
    ids,
  });
}

/** Plans and payments' view of the runtime, with the payment provider. */
function billingDeps(
  runtime: Runtime,
  payments: PaymentProvider,
  oneOffPayments: PremiumPurchaseService,
): BillingRoutesDeps {
  const { eventStore, log } = runtime;
  const billing = new BillingService({
    eventStore,
    db: runtime.database.db,
    payments,
    accounts: runtime.accounts,
    readModels: runtime.progress,
    publicUrl: runtime.config.publicUrl,
    log,
    clock: runtime.clock,
  });
  return {
    billing,
    sessions: runtime.sessions,
    webhooks: { billing, payments, oneOffPayments, log },
  };
}

/** The checkout a user comes back from, as the provider holds it. */
function checkoutReturnDeps(runtime: Runtime, payments: PaymentProvider) {
  const { eventStore, clock, log } = runtime;
  return { checkouts: new CheckoutReturns({ payments, eventStore, clock, log }), sessions: runtime.sessions };
}

/** Users reach the site over https (PUBLIC_URL): cookies are Secure, answers carry HSTS. */
const servedOverHttps = (config: Config) => config.publicUrl.startsWith('https://');

const cookieSettings = (config: Config) => ({ secure: servedOverHttps(config) });

/** The built web app, relative to this file (works from any working directory, and from the bundle). */
export const WEB_DIST_DIR = path.resolve(import.meta.dirname, '../../../web/dist');
