import { billingEndpoints, PAYMENTS_DISABLED_MESSAGE } from '@sniplink/contracts';
import { identifyActor } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes } from '../http/route-schema';
import type { BillingService } from './billing-service';
import { receiveWebhook, type WebhookDeps } from './webhooks';

export interface BillingRoutesDeps {
  billing: BillingService;
  sessions: SessionStore;
  webhooks: WebhookDeps;
}

/** Stripe's events are a few KB; the largest (a subscription with many items) stay well under this. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const route = featureRoutes(billingEndpoints, { tag: 'Billing' });

/**
 * Plans and payments: `POST /api/create-subscription`, the provider's portal behind
 * "Manage billing", and the provider's webhook.
 */
export async function billingRoutes(app: FastifyInstance, deps: BillingRoutesDeps): Promise<void> {
  const { billing } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const purchasesEnabled = deps.webhooks.payments.name !== 'off';

  api.route({
    ...route('purchases', {
      summary: 'Whether this server sells Pro and premium slugs',
      description:
        '`enabled: false` (PAYMENTS=off): every purchase is refused with 409 `PAYMENTS_DISABLED`; `message` says so.',
      answers: { 200: 'Whether purchases are enabled' },
    }),
    handler: async () =>
      purchasesEnabled
        ? { enabled: true, message: null }
        : { enabled: false, message: PAYMENTS_DISABLED_MESSAGE },
  });

  api.route({
    ...route('startCheckout', {
      summary: 'Start a checkout for Pro',
      description:
        '`sessionUrl`: the payment provider\'s checkout page to send the browser to; `status: "active"`: the user is Pro already, no checkout.',
      session: 'required',
      answers: { 200: 'A checkout, or: already Pro' },
      errors: { 409: ['PAYMENTS_DISABLED'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return billing.startCheckout(userId, request.body.plan);
    },
  });

  api.route({
    ...route('openBillingPortal', {
      summary: "The payment provider's portal: cancel, change the card, invoices",
      description: 'It returns to /profile.',
      session: 'required',
      answers: { 200: "The portal's address" },
      errors: { 409: ['CONFLICT', 'PAYMENTS_DISABLED'] },
      rateLimit: { requests: 10, minutes: 10 },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return billing.openPortal(userId);
    },
  });

  await api.register(async (scope) => {
    acceptRawJsonBodies(scope);
    scope.withTypeProvider<ZodTypeProvider>().route({
      ...route('receivePaymentWebhook', {
        summary: "The payment provider's events",
        description:
          'Called by the provider (Stripe, or the local test checkout), signed with STRIPE_WEBHOOK_SECRET in `Stripe-Signature`, checked on the raw body. Each event is applied once; a copy is answered alike and changes nothing.',
        headers: z.looseObject({
          'stripe-signature': z.string().optional().describe('`t=…,v1=…`, as Stripe signs'),
        }),
        answers: { 200: 'Received (applied, already applied, or not about a subscription)' },
        errors: { 400: ['BAD_REQUEST'] },
      }),
      bodyLimit: WEBHOOK_BODY_LIMIT,
      handler: async (request) => {
        // Neither a user nor the operator: the provider's report.
        identifyActor('system');
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        await receiveWebhook(deps.webhooks, rawBody, request.headers['stripe-signature']);
        return { received: true as const };
      },
    });
  });
}

/**
 * The webhook's body is kept as the bytes that arrived: the signature is over them, and parsing first
 * would lose them. Only in the webhook's own scope; the provider calls it without cookies or an Origin,
 * so the API's origin check lets it through.
 */
function acceptRawJsonBodies(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
}
