import * as billingTables from '@sniplink/platform/migrations/2026-11-26T01-billing';
import * as localPayments from '@sniplink/platform/migrations/2026-11-26T21-local-payments';
import * as paidPeriods from '@sniplink/platform/migrations/2026-11-28T06-paid-periods';
import { defineFeature } from '../feature';
import { BillingService } from './billing-service';
import { CheckoutReturns, checkoutReturnRoutes } from './checkout-return';
import { billingRoutes } from './routes';
import type { PaymentEventHandler } from './webhooks';

/**
 * Plans and payments: Pro's checkout and portal, the checkout a user comes back from, and the provider's
 * webhook. A feature that sells one-off payments (the marketplace) hands the webhook its handler with
 * `handleOneOffPayments`.
 */
export const billingFeature = defineFeature({
  name: 'billing',
  build: (ports) => {
    const { eventStore, payments, accounts, log, clock } = ports;
    const billing = new BillingService({
      eventStore,
      db: ports.db,
      payments,
      accounts,
      readModels: ports.progress,
      publicUrl: ports.config.publicUrl,
      log,
      clock,
    });
    const checkouts = new CheckoutReturns({ payments, eventStore, clock, log });
    const oneOff: { handler?: PaymentEventHandler } = {};
    return {
      billing,
      checkouts,
      handleOneOffPayments: (handler: PaymentEventHandler) => {
        oneOff.handler = handler;
      },
      oneOff,
    };
  },
  routes: ({ billing, checkouts, oneOff }, { sessions, payments, log }) => [
    (api) =>
      billingRoutes(api, {
        billing,
        sessions,
        webhooks: { billing, payments, oneOffPayments: oneOff.handler, log },
      }),
    (api) => checkoutReturnRoutes(api, { checkouts, sessions }),
  ],
  migrations: {
    '2026-11-26T01-billing': billingTables,
    '2026-11-26T21-local-payments': localPayments,
    '2026-11-28T06-paid-periods': paidPeriods,
  },
});
