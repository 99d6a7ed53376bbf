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

const slugIdParams = z.object({ id: z.string() });

/** The marketplace: the slugs for sale, buying one, and the owner's slugs. */
export const marketplaceEndpoints = {
  premiumSlugsForSale: endpoint({
    method: 'GET',
    path: '/api/marketplace/premium-slugs',
    answers: { 200: z.array(marketplaceSlugSchema) },
  }),
  premiumSlug: endpoint({
    method: 'GET',
    path: '/api/marketplace/premium-slugs/:id',
    params: slugIdParams,
    answers: { 200: marketplaceSlugDetailSchema },
  }),
  startPremiumPurchase: endpoint({
    method: 'POST',
    path: '/api/marketplace/premium-slugs/:id/payment-intent',
    params: slugIdParams,
    answers: { 200: premiumPaymentIntentSchema },
  }),
  premiumPurchase: endpoint({
    method: 'GET',
    path: '/api/marketplace/purchases/:paymentIntentId',
    params: z.object({ paymentIntentId: z.string().max(255) }),
    querystring: z.object({ slug: z.string().max(20).optional() }),
    answers: { 200: premiumPurchaseSchema },
  }),
  ownedPremiumSlugs: endpoint({
    method: 'GET',
    path: '/api/marketplace/my-premium-slugs',
    answers: { 200: z.array(ownedPremiumSlugSchema) },
  }),
  /** The same list, where the dashboard's card asks for it. */
  ownedPremiumSlugsCard: endpoint({
    method: 'GET',
    path: '/api/user/premium-slugs',
    answers: { 200: z.array(ownedPremiumSlugSchema) },
  }),
  setPremiumRedirect: endpoint({
    method: 'PUT',
    path: '/api/marketplace/premium-slugs/:slug/url',
    params: z.object({ slug: z.string().max(64) }),
    body: setPremiumSlugUrlBody,
    answers: { 200: ownedPremiumSlugSchema },
  }),
};

/** The console's Premium tab, behind the admin gate. */
export const premiumSlugAdminEndpoints = {
  premiumCatalogue: endpoint({
    method: 'GET',
    path: '/api/admin/premium-slugs',
    querystring: adminPremiumSlugsQuery,
    answers: { 200: adminPremiumSlugsPageSchema },
  }),
  addPremiumSlug: endpoint({
    method: 'POST',
    path: '/api/admin/premium-slugs',
    body: createPremiumSlugBody,
    answers: { 201: premiumSlugSchema },
  }),
  updatePremiumSlug: endpoint({
    method: 'PATCH',
    path: '/api/admin/premium-slugs/:id',
    params: slugIdParams,
    body: updatePremiumSlugBody,
    answers: { 200: premiumSlugSchema },
  }),
  deletePremiumSlug: endpoint({
    method: 'DELETE',
    path: '/api/admin/premium-slugs/:id',
    params: slugIdParams,
    answers: { 200: deletedPremiumSlugSchema },
  }),
  seedPremiumSlugs: endpoint({
    method: 'POST',
    path: '/api/admin/premium-slugs/seed',
    answers: { 200: premiumSeedResultSchema },
  }),
};
