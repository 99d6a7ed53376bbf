import type { EventGroup } from '@sniplink/contracts';
import type {
  ClickStream,
  Clock,
  Config,
  Database,
  EventStore,
  IdSource,
  Keyring,
  Logger,
  Mailer,
} from '@sniplink/platform';
import type { Projection, ProjectionProgress, ProjectionRebuilds } from '@sniplink/projections';
import type { Kysely, Migration } from 'kysely';
import type { AccountService } from './accounts/accounts';
import type { SessionStore } from './accounts/sessions';
import type { AdminRouteGroup } from './admin/routes';
import type { ApiKeyService } from './api-keys/api-key-service';
import type { RouteGroup } from './app';
import type { PaymentProvider } from './billing/provider';
import type { DemoService } from './demo/demo-service';
import type { RateLimiters } from './http/rate-limiter';
import type { LinkService } from './links/link-service';
import type { LiveModeration } from './moderation/live-moderation';
import type { LiveSettings } from './shared/settings';
import type { PageSeoSource } from './web';

/**
 * What the composition root gives every feature: the process's ports and the services every feature may
 * lean on (accounts, sessions, links, the demo and the settings are started with the runtime, as the CLIs
 * use them too).
 */
export interface Ports {
  config: Config;
  log: Logger;
  /** The time and the new ids every service of this process uses. */
  clock: Clock;
  ids: IdSource;
  db: Kysely<Database>;
  eventStore: EventStore;
  /** The click stream, for a consumer of its own (its group's offsets kept with what it writes). */
  clickStream: ClickStream;
  /** How far each read model is: a command waits on it before it answers (read-your-writes). */
  progress: ProjectionProgress;
  /** Every read model the app keeps, and the blue/green rebuilds this process runs of them. */
  projections: readonly Projection[];
  rebuilds: ProjectionRebuilds;
  keyring: Keyring;
  mailer: Mailer;
  limiters: RateLimiters;
  settings: LiveSettings;
  sessions: SessionStore;
  /** The API keys: their commands, and the store every bearer call is checked against. */
  apiKeys: ApiKeyService;
  accounts: AccountService;
  links: LinkService;
  demo: DemoService;
  /** The admin's prohibited words and protected brands, as every claim of a code asks them (in memory). */
  moderation: LiveModeration;
  /** The payment provider: Stripe, the local checkout, or a test's own. */
  payments: PaymentProvider;
  /** This site's origins: a link or a checkout never points back at them. */
  ownOrigins: string[];
  /** Cookie settings: Secure when the site is served over https. */
  cookie: { secure: boolean };
  /** The browser's Stripe key, when Stripe takes the payments and one is set. */
  stripePublishableKey: string | null;
}

/** The services of the features built so far, by feature: how one feature reaches another's. */
export interface BuiltFeatures {
  of<S>(feature: Feature<S>): S;
}

/**
 * One feature of the API, all in one value: the composition root lists the features and wires each the
 * same way, so adding one edits that list and nothing else shared. Features are built in the list's
 * order (one that needs another's services comes after it); routes are registered once all are built.
 */
export interface Feature<S = unknown> {
  /** Its name, as its folder's. */
  readonly name: string;
  /** Its services, built from the shared ports and the features listed before it. */
  build?(ports: Ports, built: BuiltFeatures): S;
  /** Its routes under /api/. */
  routes?(services: S, ports: Ports): RouteGroup[];
  /** Its routes in the admin console's API, behind the admin gate (paths relative to /api/admin). */
  adminRoutes?(services: S, ports: Ports): AdminRouteGroup[];
  /** The SEO entries the served pages carry instead of their own head tags (one feature at most gives them). */
  pageSeo?(services: S): PageSeoSource;
  /** Its part of the housekeeping sweep, run every 10 minutes where the projections run. */
  housekeeping?(services: S, ports: Ports): () => Promise<unknown>;
  /**
   * Its background workers (consumers, dispatchers), started where the projections run and stopped before
   * the database closes.
   */
  workers?(services: S, ports: Ports): BackgroundWorker[];
  /** The migrations of its tables, by name; they run in name order among every feature's. */
  readonly migrations?: Record<string, Migration>;
  /**
   * The events of its own streams: every event store of the app is given them with the shared ones, so
   * an event type not declared here or there is refused before anything is appended.
   */
  readonly events?: readonly EventGroup<{ type: string; data: unknown }>[];
  /** Its read models, run with the others where the projections run (PROJECTIONS=on). */
  projections?(deps: FeatureProjectionDeps): readonly Projection[];
}

/** Something that runs in the background of a process until it is stopped. */
export interface BackgroundWorker {
  start(): void;
  stop(): Promise<void>;
}

/** What a feature's projections may use: the keyring, to read what is encrypted under a user's key. */
export interface FeatureProjectionDeps {
  keyring: Keyring;
}

/** A feature, typed for its own services: `defineFeature({ name, build, routes })`. */
export const defineFeature = <S>(feature: Feature<S>): Feature<S> => feature;

/** Every feature's services, built in the order listed. */
export function buildFeatures(features: readonly Feature[], ports: Ports): Map<Feature, unknown> {
  const built = new Map<Feature, unknown>();
  const lookup: BuiltFeatures = {
    of: <S>(feature: Feature<S>) => {
      if (!built.has(feature as Feature)) {
        throw new Error(`the ${feature.name} feature is needed by one listed before it`);
      }
      return built.get(feature as Feature) as S;
    },
  };
  for (const feature of features) built.set(feature, feature.build?.(ports, lookup));
  return built;
}

/** The migrations of `base` and of every feature, by name; one name given twice is a mistake. */
export function migrationsOf(
  base: Record<string, Migration>,
  features: readonly Feature[],
): Record<string, Migration> {
  const all = { ...base };
  for (const feature of features) {
    for (const [name, migration] of Object.entries(feature.migrations ?? {})) {
      if (name in all) throw new Error(`migration ${name} is listed twice (${feature.name})`);
      all[name] = migration;
    }
  }
  return all;
}
