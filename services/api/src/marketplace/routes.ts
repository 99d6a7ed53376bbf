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
} from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { json, operation } from '../http/route-schema';
import type { PremiumPurchaseService } from './premium-purchase-service';
import type { PremiumSlugService } from './premium-slug-service';

const slugIdParams = z.object({ id: z.string() });

/**
 * The console's Premium tab: the catalogue with its four cards, add,
 * edit, delete and seed. Paths are relative to `/api/admin`, behind its gate (so every change is audited).
 */
export async function premiumSlugAdminRoutes(
  admin: FastifyInstance,
  { premiumSlugs }: { premiumSlugs: PremiumSlugService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/premium-slugs',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'premiumCatalogue',
        summary: 'The premium catalogue, 25 slugs a page, with its four stat cards',
        description:
          '`search` matches part of the slug; `category`, `tier` and `availability` (`available` or `owned`, i.e. not for sale) narrow it. The stats (total, available, owned, revenue in cents) cover the whole catalogue; revenue is 0 until purchases exist.',
        session: 'admin',
        querystring: adminPremiumSlugsQuery,
        answers: { 200: json('One page of the catalogue', adminPremiumSlugsPageSchema) },
      }),
    },
    (request) => premiumSlugs.list(request.query),
  );

  api.post(
    '/premium-slugs',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'addPremiumSlug',
        summary: 'Add a premium slug to the catalogue',
        description:
          'The slug is trimmed and lower-cased: 1-20 letters, digits, hyphens or underscores, not a reserved word. It claims its code in the namespace links use: a code a link holds (or an account keeps) is a 409, as is one already in the catalogue. `price` (cents) defaults to the setting `premium.slug_price_cents`; category to common-words, tier to standard, isAvailable to true.',
        session: 'admin',
        body: createPremiumSlugBody,
        answers: { 201: json('The slug as added', premiumSlugSchema) },
        errors: { 409: ['CONFLICT'] },
      }),
    },
    async (request, reply) => {
      reply.code(201);
      return premiumSlugs.add(request.body);
    },
  );

  api.patch(
    '/premium-slugs/:id',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'updatePremiumSlug',
        summary: 'Edit a premium slug: price, category, tier, availability, Stripe price id',
        description:
          'Absent fields are unchanged; the slug itself cannot be renamed (delete it and add another).',
        session: 'admin',
        params: slugIdParams,
        body: updatePremiumSlugBody,
        answers: { 200: json('The slug as it stands now', premiumSlugSchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    (request) => premiumSlugs.edit(request.params.id, request.body),
  );

  api.delete(
    '/premium-slugs/:id',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'deletePremiumSlug',
        summary: 'Delete a premium slug nobody owns',
        description: 'Its code is free again for links. An owned slug is a 409.',
        session: 'admin',
        params: slugIdParams,
        answers: { 200: json('Deleted', deletedPremiumSlugSchema) },
        errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'] },
      }),
    },
    async (request) => {
      await premiumSlugs.remove(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );

  api.post(
    '/premium-slugs/seed',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'seedPremiumSlugs',
        summary: 'Add the built-in catalogue of premium slugs',
        description:
          'About thirty slugs across the seven categories, at the current price setting. Codes already in the catalogue or held by a link are skipped: a second seed creates none.',
        session: 'admin',
        answers: { 200: json('How many were added and skipped', premiumSeedResultSchema) },
      }),
    },
    () => premiumSlugs.seed(),
  );
}

export interface MarketplaceRoutesDeps {
  premiumSlugs: PremiumSlugService;
  purchases: PremiumPurchaseService;
  sessions: SessionStore;
}

/** The marketplace: the slugs for sale, and buying one. */
export async function marketplaceRoutes(app: FastifyInstance, deps: MarketplaceRoutesDeps): Promise<void> {
  const { premiumSlugs, purchases } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/marketplace/premium-slugs/:id',
    {
      schema: operation({
        tag: 'Marketplace',
        operationId: 'premiumSlug',
        summary: 'One premium slug, as the checkout page loads it',
        description:
          'Open to anyone. `available` is false once it is bought or withdrawn; `held` is true while a buyer is paying for it (15 minutes at most). An unknown or deleted slug is a 404.',
        params: slugIdParams,
        answers: { 200: json('The slug', marketplaceSlugDetailSchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    (request) => purchases.slug(request.params.id),
  );

  api.post(
    '/api/marketplace/premium-slugs/:id/payment-intent',
    {
      schema: operation({
        tag: 'Marketplace',
        operationId: 'startPremiumPurchase',
        summary: 'Start buying a premium slug: a 15-minute hold and its payment',
        description:
          "Pro only: otherwise 403 `{message, requiresPro: true}`. A buyer owns or holds at most `premium.max_owned_slugs` (3) slugs: at the limit, 409 `{message, currentCount}`. A slug bought, or held by another buyer, is a 409. Otherwise the slug is held for the buyer for 15 minutes and a payment for its price is made at the provider (metadata: slug and hold ids); the browser confirms it with `clientSecret`. The provider's `payment_intent.succeeded` makes the buyer the owner; a failure or cancel releases the hold. Asking again while holding it gives the same payment.",
        session: 'required',
        params: slugIdParams,
        answers: { 200: json('The payment to confirm', premiumPaymentIntentSchema) },
        errors: { 403: ['FORBIDDEN'], 404: ['NOT_FOUND'], 409: ['CONFLICT'], 503: ['SERVICE_UNAVAILABLE'] },
      }),
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return purchases.startPurchase(userId, request.params.id);
    },
  );

  for (const [path, operationId, summary] of [
    ['/api/marketplace/my-premium-slugs', 'ownedPremiumSlugs', 'The premium slugs the signed-in user owns'],
    [
      '/api/user/premium-slugs',
      'ownedPremiumSlugsCard',
      'The premium slugs the signed-in user owns (the dashboard card)',
    ],
  ] as const) {
    api.get(
      path,
      {
        schema: operation({
          operationId,
          tag: 'Marketplace',
          summary,
          description:
            'By slug; `pricePaid` in cents. Owners keep their slugs after their subscription ends.',
          session: 'required',
          answers: { 200: json('The slugs owned', z.array(ownedPremiumSlugSchema)) },
        }),
      },
      async (request) => {
        const { userId } = sessionOf(request);
        return purchases.owned(userId);
      },
    );
  }

  api.put(
    '/api/marketplace/premium-slugs/:slug/url',
    {
      schema: operation({
        tag: 'Marketplace',
        operationId: 'setPremiumRedirect',
        summary: 'Set or remove where an owned premium slug redirects',
        description:
          "The owner's only: another user's slug, or one not bought, is a 404. `url` follows the links' rules (http or https, a public host, at most 2048 characters, not one of this site's short links): otherwise 400 naming `url`. null or blank removes the target, and `/s/{slug}` then shows a page saying it is not set up yet. No plan is asked: owners keep their slugs after their subscription ends.",
        session: 'required',
        params: z.object({ slug: z.string().max(64) }),
        body: setPremiumSlugUrlBody,
        rateLimit: { requests: 20, minutes: 10 },
        answers: { 200: json('The slug with its target', ownedPremiumSlugSchema) },
        errors: { 400: ['VALIDATION_FAILED', 'INVALID_URL'], 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return purchases.setTarget(userId, request.params.slug, request.body.url);
    },
  );

  api.get(
    '/api/marketplace/purchases/:paymentIntentId',
    {
      schema: operation({
        tag: 'Marketplace',
        operationId: 'premiumPurchase',
        summary: "The buyer's purchase made with a payment, as the success page shows it",
        description:
          "`complete` once the provider's event made the buyer the owner, with the amount paid (cents); before that, given `slug`, `processing`. Someone else's payment is a 404.",
        session: 'required',
        params: z.object({ paymentIntentId: z.string().max(255) }),
        querystring: z.object({ slug: z.string().max(20).optional() }),
        answers: { 200: json('The purchase', premiumPurchaseSchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return purchases.purchase(userId, request.params.paymentIntentId, request.query.slug);
    },
  );

  api.get(
    '/api/marketplace/premium-slugs',
    {
      schema: operation({
        tag: 'Marketplace',
        operationId: 'premiumSlugsForSale',
        summary: 'The premium slugs for sale',
        description: 'Open to anyone; by slug. Prices in cents.',
        answers: { 200: json('The slugs for sale', z.array(marketplaceSlugSchema)) },
      }),
    },
    () => premiumSlugs.forSale(),
  );
}
