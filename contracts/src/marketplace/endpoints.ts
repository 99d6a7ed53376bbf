import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  adminPremiumSlugsPageSchema,
  adminPremiumSlugsQuery,
  createPremiumSlugBody,
  deletedPremiumSlugSchema,
  marketplaceSlugDetailSchema,
  marketplaceSlugSchema,
  ownedPremiumSlugSchema,
  premiumPaymentIntentSchema,
  premiumPurchaseSchema,
  premiumSeedResultSchema,
  premiumSlugSchema,
  setPremiumSlugUrlBody,
  updatePremiumSlugBody,
} from './api';

/** The marketplace: the slugs for sale, buying one, and the owner's slugs. */
export const marketplaceEndpoints = {
  premiumSlugsForSale: endpoint('GET /api/marketplace/premium-slugs', {
    200: z.array(marketplaceSlugSchema),
  }),
  premiumSlug: endpoint('GET /api/marketplace/premium-slugs/:id', { 200: marketplaceSlugDetailSchema }),
  startPremiumPurchase: endpoint('POST /api/marketplace/premium-slugs/:id/payment-intent', {
    200: premiumPaymentIntentSchema,
  }),
  premiumPurchase: endpoint(
    'GET /api/marketplace/purchases/:paymentIntentId',
    { 200: premiumPurchaseSchema },
    {
      params: z.object({ paymentIntentId: z.string().max(255) }),
      querystring: z.object({ slug: z.string().max(20).optional() }),
    },
  ),
  ownedPremiumSlugs: endpoint('GET /api/marketplace/my-premium-slugs', {
    200: z.array(ownedPremiumSlugSchema),
  }),
  /** The same list, where the dashboard's card asks for it. */
  ownedPremiumSlugsCard: endpoint('GET /api/user/premium-slugs', { 200: z.array(ownedPremiumSlugSchema) }),
  setPremiumRedirect: endpoint(
    'PUT /api/marketplace/premium-slugs/:slug/url',
    { 200: ownedPremiumSlugSchema },
    { params: z.object({ slug: z.string().max(64) }), body: setPremiumSlugUrlBody },
  ),
};

/** The console's Premium tab, behind the admin gate. */
export const premiumSlugAdminEndpoints = {
  premiumCatalogue: endpoint(
    'GET /api/admin/premium-slugs',
    { 200: adminPremiumSlugsPageSchema },
    { querystring: adminPremiumSlugsQuery },
  ),
  addPremiumSlug: endpoint(
    'POST /api/admin/premium-slugs',
    { 201: premiumSlugSchema },
    { body: createPremiumSlugBody },
  ),
  updatePremiumSlug: endpoint(
    'PATCH /api/admin/premium-slugs/:id',
    { 200: premiumSlugSchema },
    { body: updatePremiumSlugBody },
  ),
  deletePremiumSlug: endpoint('DELETE /api/admin/premium-slugs/:id', { 200: deletedPremiumSlugSchema }),
  seedPremiumSlugs: endpoint('POST /api/admin/premium-slugs/seed', { 200: premiumSeedResultSchema }),
};
