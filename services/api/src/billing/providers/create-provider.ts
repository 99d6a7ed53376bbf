import {
  type Clock,
  type Config,
  type Database,
  type IdSource,
  type Logger,
  refuseTestPaymentsInProduction,
} from '@sniplink/platform';
import type { Kysely } from 'kysely';
import type { RouteGroup } from '../../app';
import type { PaymentProvider } from '../provider';
import { LocalPayments } from './local';
import type { DeliverWebhook } from './local-events';
import { localPaymentPages } from './local-pages';
import { PaymentsOff } from './off';
import { type StripeProviderDeps, stripeProvider } from './stripe';
import { webhookSigningSecret } from './webhook-secret';

export interface PaymentProviderDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: IdSource;
  log: Logger;
  /**
   * How the local provider hands its signed events to the webhook route Stripe calls
   * (`POST /api/webhooks/stripe`); the composition root gives it once the app exists.
   */
  deliver: DeliverWebhook;
  /** Where the stripe SDK sends its calls (tests: a local server); absent: api.stripe.com. */
  stripeApi?: StripeProviderDeps['api'];
}

/** The provider the app takes payments with, its pages if it has any, and the line the start-up log says. */
export interface PaymentSetup {
  provider: PaymentProvider;
  /** The local provider's test checkout and portal (`/pay/local/…`); none with Stripe. */
  pages: RouteGroup | undefined;
  description: string;
}

/**
 * As PAYMENTS says (config.ts): Stripe, none (`off`), or the local test provider (refused in production:
 * it takes no money). Stripe and the local provider check webhooks with the SDK against the same secret: STRIPE_WEBHOOK_SECRET, or for the
 * local provider the one kept in DATA_DIR/webhook-secret.
 */
export async function createPaymentProvider(
  config: Config,
  deps: PaymentProviderDeps,
): Promise<PaymentSetup> {
  refuseTestPaymentsInProduction(config);
  const { payments } = config;
  if (payments.kind === 'off') {
    return {
      provider: new PaymentsOff(),
      pages: undefined,
      description: payments.defaulted
        ? 'payments: off (NODE_ENV=production and no STRIPE_SECRET_KEY): purchases are not enabled; admins set plans'
        : 'payments: off (PAYMENTS=off): purchases are not enabled; admins set plans',
    };
  }
  if (payments.kind === 'stripe') {
    return {
      provider: stripeProvider({
        secretKey: payments.secretKey,
        prices: payments.prices,
        webhookSecret: payments.webhookSecret,
        publicUrl: config.publicUrl,
        clock: deps.clock,
        ids: deps.ids,
        api: deps.stripeApi,
      }),
      pages: undefined,
      description: 'payments: Stripe',
    };
  }
  const local = new LocalPayments({
    db: deps.db,
    webhookSecret: await webhookSigningSecret(payments.webhookSecret, config.dataDir, deps.log),
    publicUrl: config.publicUrl,
    clock: deps.clock,
    ids: deps.ids,
    log: deps.log,
    deliver: deps.deliver,
  });
  return {
    provider: local,
    pages: (api) => localPaymentPages(api, { payments: local }),
    description: 'payments: local test provider (no money moves)',
  };
}
