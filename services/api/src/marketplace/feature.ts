import * as premiumSlugs from '@sniplink/platform/migrations/2026-11-27T06-premium-slugs';
import * as premiumPurchases from '@sniplink/platform/migrations/2026-11-27T08-premium-purchases';
import * as premiumTargets from '@sniplink/platform/migrations/2026-11-27T09-premium-targets';
import * as premiumPayments from '@sniplink/platform/migrations/2026-11-28T12-premium-payments';
import { billingFeature } from '../billing/feature';
import { defineFeature } from '../feature';
import { PremiumPurchaseService } from './premium-purchase-service';
import { PremiumSlugService } from './premium-slug-service';
import { marketplaceRoutes, premiumSlugAdminRoutes } from './routes';

/**
 * Premium slugs: admins keep the catalogue (the Premium tab), users buy from it. Its payments come back
 * through billing's webhook; a suspension cancels the buyer's open payments and releases their holds.
 */
export const marketplaceFeature = defineFeature({
  name: 'marketplace',
  build: (ports, built) => {
    const { eventStore, settings, clock, ids, log, db } = ports;
    const premiumSlugs = new PremiumSlugService({
      eventStore,
      db,
      readModels: ports.progress,
      settings,
      moderation: ports.moderation,
      clock,
      ids,
    });
    const purchases = new PremiumPurchaseService({
      publishableKey: ports.stripePublishableKey,
      eventStore,
      db,
      readModels: ports.progress,
      settings,
      payments: ports.payments,
      log,
      clock,
      ids,
      ownOrigins: ports.ownOrigins,
    });
    ports.accounts.endOnSuspension((userId) => purchases.cancelOpenPurchases(userId));
    built.of(billingFeature).handleOneOffPayments(purchases);
    return { premiumSlugs, purchases };
  },
  routes: ({ premiumSlugs, purchases }, { sessions }) => [
    (api) => marketplaceRoutes(api, { premiumSlugs, purchases, sessions }),
  ],
  adminRoutes: ({ premiumSlugs }) => [(admin) => premiumSlugAdminRoutes(admin, { premiumSlugs })],
  migrations: {
    '2026-11-27T06-premium-slugs': premiumSlugs,
    '2026-11-27T08-premium-purchases': premiumPurchases,
    '2026-11-27T09-premium-targets': premiumTargets,
    '2026-11-28T12-premium-payments': premiumPayments,
  },
});
