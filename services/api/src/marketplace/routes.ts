import {
  marketplaceEndpoints,
  premiumSlugAdminEndpoints,
  type SetPremiumSlugUrlBody,
} from '@sniplink/contracts';
import { ValidationError } from '@sniplink/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { ADMIN } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { PremiumPurchaseService } from './premium-purchase-service';
import type { PremiumSlugService } from './premium-slug-service';

/**
 * The console's Premium tab: the catalogue with its four cards, add,
 * edit, delete and seed. Registered under `/api/admin`, behind its gate (so every change is audited).
 */
export async function premiumSlugAdminRoutes(
  admin: FastifyInstance,
  { premiumSlugs }: { premiumSlugs: PremiumSlugService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const adminRoute = featureRoutes(premiumSlugAdminEndpoints, ADMIN);

  api.route({
    ...adminRoute('premiumCatalogue', {
      summary: 'The premium catalogue, 25 slugs a page, with its four stat cards',
      description:
        '`search` matches part of the slug; `category`, `tier` and `availability` (`available` or `owned`, i.e. not for sale) narrow it. The stats (total, available, owned, revenue in cents) cover the whole catalogue; revenue is 0 until purchases exist.',
      answers: { 200: 'One page of the catalogue' },
    }),
    handler: (request) => premiumSlugs.list(request.query),
  });

  api.route({
    ...adminRoute('addPremiumSlug', {
      summary: 'Add a premium slug to the catalogue',
      description:
        'The slug is trimmed and lower-cased: 1-20 letters, digits, hyphens or underscores, not a reserved word. It claims its code in the namespace links use: a code a link holds (or an account keeps) is a 409, as is one already in the catalogue. `price` (cents) defaults to the setting `premium.slug_price_cents`; category to common-words, tier to standard, isAvailable to true.',
      answers: { 201: 'The slug as added' },
      errors: { 400: ['PROHIBITED_CODE', 'PROTECTED_BRAND'], 409: ['CONFLICT'] },
    }),
    handler: async (request, reply) => {
      reply.code(201);
      return premiumSlugs.add(request.body);
    },
  });

  api.route({
    ...adminRoute('updatePremiumSlug', {
      summary: 'Edit a premium slug: price, category, tier, availability, Stripe price id',
      description:
        'Absent fields are unchanged; the slug itself cannot be renamed (delete it and add another).',
      answers: { 200: 'The slug as it stands now' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => premiumSlugs.edit(request.params.id, request.body),
  });

  api.route({
    ...adminRoute('deletePremiumSlug', {
      summary: 'Delete a premium slug nobody owns',
      description: 'Its code is free again for links. An owned slug is a 409.',
      answers: { 200: 'Deleted' },
      errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'] },
    }),
    handler: async (request) => {
      await premiumSlugs.remove(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  api.route({
    ...adminRoute('seedPremiumSlugs', {
      summary: 'Add the built-in catalogue of premium slugs',
      description:
        'About thirty slugs across the seven categories, at the current price setting. Codes already in the catalogue or held by a link are skipped: a second seed creates none.',
      answers: { 200: 'How many were added and skipped' },
    }),
    handler: () => premiumSlugs.seed(),
  });
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
  const route = featureRoutes(marketplaceEndpoints, { tag: 'Marketplace' });

  api.route({
    ...route('premiumSlug', {
      summary: 'One premium slug, as the checkout page loads it',
      description:
        'Open to anyone. `available` is false once it is bought or withdrawn; `held` is true while a buyer is paying for it (15 minutes at most). An unknown or deleted slug is a 404.',
      answers: { 200: 'The slug' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => purchases.slug(request.params.id),
  });

  api.route({
    ...route('startPremiumPurchase', {
      summary: 'Start buying a premium slug: a 15-minute hold and its payment',
      description:
        "Pro only: otherwise 403 `{message, requiresPro: true}`. A buyer owns or holds at most `premium.max_owned_slugs` (3) slugs: at the limit, 409 `{message, currentCount}`. A slug bought, or held by another buyer, is a 409. Otherwise the slug is held for the buyer for 15 minutes and a payment for its price is made at the provider (metadata: slug and hold ids); the browser confirms it with `clientSecret`. The provider's `payment_intent.succeeded` makes the buyer the owner; a failure or cancel releases the hold. Asking again while holding it gives the same payment.",
      session: 'required',
      answers: { 200: 'The payment to confirm' },
      errors: { 403: ['FORBIDDEN'], 404: ['NOT_FOUND'], 409: ['CONFLICT'], 503: ['SERVICE_UNAVAILABLE'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return purchases.startPurchase(userId, request.params.id);
    },
  });

  for (const [name, summary] of [
    ['ownedPremiumSlugs', 'The premium slugs the signed-in user owns'],
    ['ownedPremiumSlugsCard', 'The premium slugs the signed-in user owns (the dashboard card)'],
  ] as const) {
    api.route({
      ...route(name, {
        summary,
        description: 'By slug; `pricePaid` in cents. Owners keep their slugs after their subscription ends.',
        session: 'required',
        answers: { 200: 'The slugs owned' },
      }),
      handler: async (request) => {
        const { userId } = sessionOf(request);
        return purchases.owned(userId);
      },
    });
  }

  api.route({
    ...route('setPremiumRedirect', {
      summary: 'Set or remove where an owned premium slug redirects',
      description:
        "The owner's only: another user's slug, or one not bought, is a 404. The target is `url`, or under the answer's names `targetUrl` or `currentUrl` (one of the three: none, or two that differ, is a 400 naming `url`). It follows the links' rules (http or https, a public host, at most 2048 characters, not one of this site's short links): otherwise 400 naming `url`. null or blank removes the target, and `/s/{slug}` then shows a page saying it is not set up yet. No plan is asked: owners keep their slugs after their subscription ends.",
      session: 'required',
      rateLimit: { requests: 20, minutes: 10 },
      answers: { 200: 'The slug with its target, as both `targetUrl` and `currentUrl`' },
      errors: { 400: ['VALIDATION_FAILED', 'INVALID_URL'], 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return purchases.setTarget(userId, request.params.slug, premiumTargetOf(request.body));
    },
  });

  api.route({
    ...route('premiumPurchase', {
      summary: "The buyer's purchase made with a payment, as the success page shows it",
      description:
        "`complete` once the provider's event made the buyer the owner, with the amount paid (cents); before that, given `slug`, `processing`. Someone else's payment is a 404.",
      session: 'required',
      answers: { 200: 'The purchase' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return purchases.purchase(userId, request.params.paymentIntentId, request.query.slug);
    },
  });

  api.route({
    ...route('premiumSlugsForSale', {
      summary: 'The premium slugs for sale',
      description: 'Open to anyone; by slug. Prices in cents.',
      answers: { 200: 'The slugs for sale' },
    }),
    handler: () => premiumSlugs.forSale(),
  });
}

/** The one target a body gives, under any of its three names; none, or two that differ, is a 400. */
function premiumTargetOf(body: SetPremiumSlugUrlBody): string | null {
  const given = [body.url, body.targetUrl, body.currentUrl].filter((value) => value !== undefined);
  const [target] = given;
  if (target === undefined) throw new ValidationError('url is required (or targetUrl, or currentUrl)', 'url');
  if (given.some((value) => value !== target))
    throw new ValidationError('url, targetUrl and currentUrl differ: give one of them', 'url');
  return target;
}
