/**
 * The composition root: which kind of process runs which route groups, projections and consumers, and
 * what each feature's routes are given. main.ts and redirect-main.ts pick their kind, listen and stop;
 * the tests start the app the same way (test/support/api.ts).
 *
 * app (`npm start`; deploy/compose.distributed.yaml's `api` and `projections`)
 *   routes       every feature's route group under /api/ (`featureRoutes`), `GET /s/{code}`, the web app;
 *                the local payment provider's pages (/pay/local/…) unless STRIPE_SECRET_KEY is set
 *   projections  PROJECTIONS=on (the default): every one in `appProjections` (features.ts); PROJECTIONS=off: none
 *   consumers    the click analytics consumer and the housekeeping sweeps where the projections run;
 *                always the code changes that evict the redirect's cache, and the click publisher
 * redirect (`npm run start:redirect`)
 *   routes       `GET /s/{code}` and the web app's not-found page
 *   projections  none
 *   consumers    the code changes that evict the redirect's cache, and the click publisher
 *
 * Both kinds serve /healthz and /readyz, and /metrics when METRICS or METRICS_TOKEN turns it on (their own
 * figures: the redirect process has no projections to report).
 *
 * There is no process of projections alone: the distributed deployment's `projections` service is the app with
 * PROJECTIONS=on, its `api` replicas the app with PROJECTIONS=off. The features themselves (their routes,
 * admin routes, housekeeping and migrations) are listed in features.ts and wired here alike.
 */
import path from 'node:path';
import {
  type AdminRouteGroup,
  type AppDeps,
  adminRoutes,
  buildApp,
  buildFeatures,
  createMetricsRegistry,
  createPaymentProvider,
  type DeliverWebhook,
  type PageSeoSource,
  type PaymentProvider,
  type PaymentSetup,
  type Ports,
  postgresRateLimiters,
  type RouteGroup,
} from '@sniplink/api';
import { type Config, type Logger, refuseTestPaymentsInProduction } from '@sniplink/platform';
import { adminAuditProjection, isAdminUser } from '@sniplink/projections';
import type { FastifyInstance } from 'fastify';
import { features } from './features';
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
  /** The payment provider a test hands in; absent: Stripe or the local checkout, as STRIPE_SECRET_KEY says. */
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
    // Every projection in appProjections, the click analytics consumer and the housekeeping sweeps.
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
      ...httpSettings(config, log, options.webDistDir, runtime),
      readiness: runtime.readiness,
      allowedOrigins: allowedOrigins(config),
      publicUrl: config.canonicalUrl,
      ...featureRoutes(runtime, payments),
      sessions: runtime.sessions,
      apiKeys: runtime.apiKeys.store,
      writeLimits: {
        limiters: postgresRateLimiters({ pool: runtime.database.pool }),
        scale: config.writeLimitScale,
      },
      redirect: { cache: runtime.linkCache, clicks: runtime.clickBuffer, controls: runtime.linkControls },
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
    ...httpSettings(config, log, options.webDistDir, runtime),
    readiness: runtime.readiness,
    // No state-changing routes here: no origin is allowed one.
    allowedOrigins: [],
    redirect: { cache: runtime.linkCache, clicks: runtime.clickBuffer, controls: runtime.linkControls },
  }));
}

/**
 * The API's route groups: every feature's (features.ts), built from the runtime's ports, and the admin
 * console's API, whose groups (every feature's admin routes) all stand behind the admin gate (`/api/admin`,
 * 401 signed out, 403 for a non-admin). Each feature's housekeeping joins the runtime's sweep; the SEO
 * entries a feature gives go into the served pages' heads.
 */
function featureRoutes(
  runtime: Runtime,
  payments: PaymentSetup,
): { routes: RouteGroup[]; pageSeo?: PageSeoSource } {
  const ports = featurePorts(runtime, payments.provider);
  const built = buildFeatures(features, ports);
  const routes: RouteGroup[] = [];
  const adminGroups: AdminRouteGroup[] = [];
  let pageSeo: PageSeoSource | undefined;
  for (const feature of features) {
    const services = built.get(feature);
    routes.push(...(feature.routes?.(services, ports) ?? []));
    adminGroups.push(...(feature.adminRoutes?.(services, ports) ?? []));
    pageSeo ??= feature.pageSeo?.(services);
    const sweep = feature.housekeeping?.(services, ports);
    if (sweep) runtime.housekeeping.add(sweep);
    for (const worker of feature.workers?.(services, ports) ?? []) runtime.workers.add(worker);
  }
  const db = runtime.database.db;
  const allRoutes: RouteGroup[] = [
    ...routes,
    (api) =>
      adminRoutes(api, {
        sessions: runtime.sessions,
        // The users read model's flag: one row by its key. An admin change waits for that read model before
        // it answers, so a revoked admin meets the 403 on their next call.
        isAdmin: (userId) => isAdminUser(db, userId),
        groups: adminGroups,
        untilAudited: (position) => runtime.progress.waitFor(adminAuditProjection, position),
      }),
    // The local provider's test checkout and portal pages (none with Stripe).
    ...(payments.pages ? [payments.pages] : []),
  ];
  return { routes: allRoutes, ...(pageSeo ? { pageSeo } : {}) };
}

/** What every feature is built from: the runtime's ports and its shared services, and the payment provider. */
function featurePorts(runtime: Runtime, payments: PaymentProvider): Ports {
  const { config } = runtime;
  return {
    config,
    log: runtime.log,
    clock: runtime.clock,
    ids: runtime.ids,
    db: runtime.database.db,
    eventStore: runtime.eventStore,
    clickStream: runtime.clickStream,
    progress: runtime.progress,
    projections: runtime.projections,
    rebuilds: runtime.rebuilds,
    keyring: runtime.keyring,
    mailer: runtime.mailer,
    limiters: postgresRateLimiters({ pool: runtime.database.pool }),
    settings: runtime.settings,
    sessions: runtime.sessions,
    apiKeys: runtime.apiKeys,
    accounts: runtime.accounts,
    links: runtime.links,
    demo: runtime.demo,
    moderation: runtime.moderation,
    payments,
    ownOrigins: allowedOrigins(config),
    cookie: { secure: servedOverHttps(config) },
    stripePublishableKey: stripePublishableKey(config),
  };
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
function httpSettings(
  config: Config,
  log: Logger,
  webDistDir: string | undefined,
  runtime: Pick<ProcessRuntime, 'registerMetrics'>,
) {
  return {
    log,
    trustProxy: config.trustProxy,
    requestTimeoutMs: config.requestTimeoutMs,
    // The fast paths answer before Fastify, where the access log is written: with every request logged,
    // every redirect goes through the Fastify route.
    redirectFastPath: config.accessLog === 'all' ? 'off' : config.redirectFastPath,
    accessLog: config.accessLog,
    metrics: config.metrics && { registry: metricsRegistry(runtime), token: config.metrics.token },
    webDistDir,
    https: servedOverHttps(config),
    stripeJs: stripePublishableKey(config) !== null,
  };
}

/** `/metrics`' registry: node's default series, the HTTP ones (buildApp), and the runtime's figures. */
function metricsRegistry(runtime: Pick<ProcessRuntime, 'registerMetrics'>) {
  const registry = createMetricsRegistry();
  runtime.registerMetrics(registry);
  return registry;
}

/** The browser's Stripe key, when Stripe takes the payments and one is set. */
const stripePublishableKey = (config: Config) =>
  config.payments.kind === 'stripe' ? config.payments.publishableKey : null;

/** Users reach the site over https (PUBLIC_URL): cookies are Secure, answers carry HSTS. */
const servedOverHttps = (config: Config) => config.publicUrl.startsWith('https://');

/** The built web app, relative to this file (works from any working directory, and from the bundle). */
export const WEB_DIST_DIR = path.resolve(import.meta.dirname, '../../../web/dist');
