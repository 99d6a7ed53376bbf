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
    answers: { 200: z.array(marketplaceSlugSchema) },
  }),
  premiumSlug: endpoint('GET /api/marketplace/premium-slugs/:id', {
    answers: { 200: marketplaceSlugDetailSchema },
  }),
  startPremiumPurchase: endpoint('POST /api/marketplace/premium-slugs/:id/payment-intent', {
    answers: { 200: premiumPaymentIntentSchema },
  }),
  premiumPurchase: endpoint('GET /api/marketplace/purchases/:paymentIntentId', {
    params: z.object({ paymentIntentId: z.string().max(255) }),
    querystring: z.object({ slug: z.string().max(20).optional() }),
    answers: { 200: premiumPurchaseSchema },
  }),
  ownedPremiumSlugs: endpoint('GET /api/marketplace/my-premium-slugs', {
    answers: { 200: z.array(ownedPremiumSlugSchema) },
  }),
  /** The same list, where the dashboard's card asks for it. */
  ownedPremiumSlugsCard: endpoint('GET /api/user/premium-slugs', {
    answers: { 200: z.array(ownedPremiumSlugSchema) },
  }),
  setPremiumRedirect: endpoint('PUT /api/marketplace/premium-slugs/:slug/url', {
    params: z.object({ slug: z.string().max(64) }),
    body: setPremiumSlugUrlBody,
    answers: { 200: ownedPremiumSlugSchema },
  }),
};

/** The console's Premium tab, behind the admin gate. */
export const premiumSlugAdminEndpoints = {
  premiumCatalogue: endpoint('GET /api/admin/premium-slugs', {
    querystring: adminPremiumSlugsQuery,
    answers: { 200: adminPremiumSlugsPageSchema },
  }),
  addPremiumSlug: endpoint('POST /api/admin/premium-slugs', {
    body: createPremiumSlugBody,
    answers: { 201: premiumSlugSchema },
  }),
  updatePremiumSlug: endpoint('PATCH /api/admin/premium-slugs/:id', {
    body: updatePremiumSlugBody,
    answers: { 200: premiumSlugSchema },
  }),
  deletePremiumSlug: endpoint('DELETE /api/admin/premium-slugs/:id', {
    answers: { 200: deletedPremiumSlugSchema },
  }),
  seedPremiumSlugs: endpoint('POST /api/admin/premium-slugs/seed', {
    answers: { 200: premiumSeedResultSchema },
  }),
};
