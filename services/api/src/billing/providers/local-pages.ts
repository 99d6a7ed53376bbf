import { PLAN_PRICES, type PlanId } from '@sniplink/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptEmptyForms } from '../../http/content-type';
import { type Answer, bodiless, json, operation, text } from '../../http/route-schema';
import { sendSmallPage, smallPage } from '../../http/small-page';
import { escapeHtml } from '../../web';
import { LOCAL_PAY_PATH, type LocalPayments, type PortalView } from './local';
import type { PortalAction } from './local-subscriptions';

export interface LocalPaymentPagesDeps {
  payments: LocalPayments;
}

/** Every screen of the local provider says so, so no one takes it for a real payment. */
export const TEST_PAYMENT_NOTICE = 'Test payment: no money moves';

/**
 * The local provider's pages: the test checkout (`/pay/local/{sessionId}`: Pay, Pay with a declined
 * card, Cancel) and the test portal (`/pay/local/portal/{token}`). Small server-made pages without
 * script whose forms post to this site (the API's origin check applies); each button is a form of its own,
 * with an empty body. Registered only while the local provider is the one in use.
 */
export async function localPaymentPages(app: FastifyInstance, deps: LocalPaymentPagesDeps): Promise<void> {
  const { payments } = deps;
  await app.register(async (scope) => {
    acceptEmptyForms(scope);
    const pages = scope.withTypeProvider<ZodTypeProvider>();

    pages.get(`${LOCAL_PAY_PATH}/:sessionId`, { schema: CHECKOUT_PAGE }, async (request, reply) => {
      const checkout = await payments.checkout(request.params.sessionId);
      if (!checkout) return sendPage(reply, 404, CHECKOUT_NOT_FOUND);
      return sendPage(reply, 200, checkoutPage(request.params.sessionId, checkout.plan));
    });
    pages.post(`${LOCAL_PAY_PATH}/:sessionId/pay`, { schema: PAY }, async (request, reply) => {
      const successUrl = await payments.pay(request.params.sessionId);
      if (!successUrl) return sendPage(reply, 404, CHECKOUT_NOT_FOUND);
      return reply.redirect(successUrl, 303);
    });
    pages.post(`${LOCAL_PAY_PATH}/:sessionId/decline`, { schema: DECLINE }, async (request, reply) => {
      // As Stripe's Checkout: the buyer stays on the page, told why; nothing is made, no event is sent.
      const checkout = await payments.checkout(request.params.sessionId);
      if (!checkout) return sendPage(reply, 404, CHECKOUT_NOT_FOUND);
      return sendPage(
        reply,
        402,
        checkoutPage(request.params.sessionId, checkout.plan, 'Your card was declined.'),
      );
    });
    pages.post(`${LOCAL_PAY_PATH}/:sessionId/cancel`, { schema: CANCEL }, async (request, reply) => {
      const cancelUrl = await payments.cancelUrl(request.params.sessionId);
      if (!cancelUrl) return sendPage(reply, 404, CHECKOUT_NOT_FOUND);
      return reply.redirect(cancelUrl, 303);
    });

    pages.post(
      `${LOCAL_PAY_PATH}/payments/:paymentId/confirm`,
      { schema: CONFIRM_PAYMENT },
      async (request, reply) => {
        const { clientSecret, action } = request.body;
        const outcome = await payments.confirmPayment(request.params.paymentId, clientSecret, action);
        if (!outcome) return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such payment' });
        return outcome;
      },
    );

    pages.get(`${LOCAL_PAY_PATH}/portal/:token`, { schema: PORTAL_PAGE }, async (request, reply) => {
      const portal = await payments.portal(request.params.token);
      if (!portal) return sendPage(reply, 404, PORTAL_NOT_FOUND);
      return sendPage(reply, 200, portalPage(request.params.token, portal));
    });
    pages.post(
      `${LOCAL_PAY_PATH}/portal/:token/:action`,
      { schema: PORTAL_ACTION },
      async (request, reply) => {
        const { token, action } = request.params;
        if (!(await payments.portalAction(token, action))) return sendPage(reply, 404, PORTAL_NOT_FOUND);
        return reply.redirect(`${LOCAL_PAY_PATH}/portal/${encodeURIComponent(token)}`, 303);
      },
    );
  });
}

const sendPage = (reply: FastifyReply, status: number, html: string) =>
  sendSmallPage(reply, { status, cacheControl: 'no-store', html });

const STYLE = `  .notice { display: inline-block; margin: 0 0 1rem; padding: .3rem .75rem; border-radius: 999px;
    background: #fff3bf; color: #5c3c00; font-size: .875rem; font-weight: 600; }
  .price { font-size: 1.25rem; font-weight: 600; color: #212529; }
  .error { color: #c92a2a; font-weight: 600; }
  form { margin: .5rem 0; }
  button, a.back { display: inline-block; min-width: 16rem; padding: .6rem 1.2rem; border-radius: 8px;
    font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
  button { border: 1px solid #ced4da; background: #fff; color: #212529; }
  button.primary { border-color: #228be6; background: #228be6; color: #fff; }
  button.danger { border-color: #c92a2a; background: #c92a2a; color: #fff; }
  a.back { color: #1864ab; }`;

const page = (title: string, main: string) =>
  smallPage({ title, style: STYLE, main: `  <p class="notice">${TEST_PAYMENT_NOTICE}</p>\n${main}` });

const button = (action: string, label: string, kind = '') =>
  `  <form method="post" action="${escapeHtml(action)}"><button type="submit"${kind ? ` class="${kind}"` : ''}>${label}</button></form>`;

const PLAN_NAMES: Record<PlanId, string> = { monthly: 'Pro Monthly', yearly: 'Pro Yearly' };

/** "$2/month", "$20/year". */
const priceText = (plan: PlanId) => `$${PLAN_PRICES[plan].cents / 100}/${PLAN_PRICES[plan].interval}`;

function checkoutPage(sessionId: string, plan: PlanId, error?: string): string {
  const base = `${LOCAL_PAY_PATH}/${encodeURIComponent(sessionId)}`;
  return page(
    'Test checkout',
    [
      `  <h1>${PLAN_NAMES[plan]}</h1>`,
      `  <p class="price">${priceText(plan)}</p>`,
      error ? `  <p class="error" role="alert">${escapeHtml(error)}</p>` : '',
      button(`${base}/pay`, 'Pay', 'primary'),
      button(`${base}/decline`, 'Pay with a declined card'),
      button(`${base}/cancel`, 'Cancel'),
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

const CHECKOUT_NOT_FOUND = page(
  'Checkout not found',
  `  <h1>Checkout not found</h1>
  <p>This test checkout does not exist, has been paid already, or has expired.</p>
  <a class="back" href="/subscribe">Choose a plan</a>`,
);

const PORTAL_NOT_FOUND = page(
  'Billing page expired',
  `  <h1>Billing page expired</h1>
  <p>This billing page does not exist or has expired. Open it again with "Manage billing" on your profile.</p>
  <a class="back" href="/profile">Back to your profile</a>`,
);

const dateText = (date: Date) =>
  date.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

function portalPage(token: string, portal: PortalView): string {
  const base = `${LOCAL_PAY_PATH}/portal/${encodeURIComponent(token)}`;
  const back = `  <p><a class="back" href="${escapeHtml(portal.returnUrl)}">Back to Sniplink</a></p>`;
  const subscription = portal.subscription;
  if (!subscription) return page('Billing', `  <h1>Billing</h1>\n  <p>No subscription.</p>\n${back}`);
  const end = dateText(subscription.periodEnd);
  const ended = subscription.status === 'canceled';
  const state = ended
    ? `Ended on ${end}.`
    : subscription.cancelAtPeriodEnd
      ? `Ends on ${end}.`
      : `Renews on ${end}.`;
  const lines = [
    '  <h1>Billing</h1>',
    `  <p class="price">${PLAN_NAMES[subscription.plan]} · ${priceText(subscription.plan)}</p>`,
    `  <p>${state}</p>`,
    subscription.status === 'past_due'
      ? `  <p class="error" role="alert">The last payment failed: Pro until ${end} unless it is paid.</p>`
      : '',
    !ended && !subscription.cancelAtPeriodEnd
      ? button(`${base}/cancel-at-period-end`, 'Cancel at period end')
      : '',
    !ended ? button(`${base}/end-now`, 'End the period now', 'danger') : '',
    !ended && subscription.status !== 'past_due'
      ? button(`${base}/fail-payment`, 'Fail the next payment')
      : '',
    back,
  ];
  return page('Billing', lines.filter(Boolean).join('\n'));
}

const TAG = 'Local test payments';
const sessionParams = z.object({ sessionId: z.string().describe('The checkout session (`cs_test_…`)') });
const checkoutGone = text('No open checkout with this id (unknown, paid, or expired): a page', 'text/html');

/** A call of the checkout page: its own answer, besides the page saying there is no such checkout. */
const checkoutCall = (
  operationId: string,
  summary: string,
  answers: Record<number, Answer | z.ZodType>,
  description?: string,
) =>
  operation({
    operationId,
    tag: TAG,
    summary,
    ...(description ? { description } : {}),
    params: sessionParams,
    answers: { ...answers, 404: checkoutGone },
  });

const CHECKOUT_PAGE = checkoutCall('localCheckoutPage', 'The test checkout page (local provider only)', {
  200: text('Pay, Pay with a declined card, Cancel', 'text/html'),
});

const PAY = checkoutCall(
  'localPay',
  'Pay (the button): Pro starts, its webhook events are delivered',
  { 303: bodiless('To the success URL', { Location: '`/subscribe?payment=success&session_id=…`' }) },
  'Makes the subscription and delivers `checkout.session.completed`, `customer.subscription.created` and ' +
    '`invoice.paid`, signed, to `POST /api/webhooks/stripe`; then to the success URL. A session paid ' +
    'already goes to the success URL again.',
);

const DECLINE = checkoutCall(
  'localDecline',
  'Pay with a declined card (the button): the page again, nothing made',
  {
    402: text('The checkout page saying "Your card was declined."', 'text/html'),
  },
);

const CANCEL = checkoutCall(
  'localCancel',
  'Cancel (the button): back to the plans; the checkout stays open',
  {
    303: bodiless('To the cancel URL', { Location: '`/subscribe?payment=canceled`' }),
  },
);

const portalParams = z.object({ token: z.string().describe('The token of the link `createPortal` made') });
const portalGone = text('An unknown or expired portal link: a page', 'text/html');

/**
 * The test card form's buttons for a one-off payment (premium slugs): the web app's checkout page posts
 * here with the payment's client secret, as Stripe.js confirms a PaymentIntent.
 */
const CONFIRM_PAYMENT = operation({
  tag: TAG,
  operationId: 'localCheckoutAction',
  summary: 'Confirm a test payment: Pay, Pay with a declined card, or Cancel (local provider only)',
  description:
    '`pay` succeeds the payment and delivers `payment_intent.succeeded`; `decline` fails this attempt with ' +
    '"Your card was declined." and delivers `payment_intent.payment_failed`; `cancel` delivers ' +
    '`payment_intent.canceled`. Each is signed and sent to `POST /api/webhooks/stripe`. A payment no longer ' +
    'open answers its status.',
  params: z.object({ paymentId: z.string() }),
  body: z.object({ clientSecret: z.string().max(200), action: z.enum(['pay', 'decline', 'cancel']) }),
  answers: {
    200: json(
      "The payment's status, and the card error of a declined attempt",
      z.object({ status: z.string(), error: z.string().nullable() }),
    ),
    404: json(
      'No such payment, or a wrong client secret',
      z.object({ code: z.string(), message: z.string() }),
    ),
  },
});

const PORTAL_PAGE = operation({
  tag: TAG,
  operationId: 'localPortalPage',
  summary: 'The test billing portal (local provider only)',
  params: portalParams,
  answers: { 200: text('The subscription: plan, period end, its buttons', 'text/html'), 404: portalGone },
});

const portalActions = [
  'cancel-at-period-end',
  'end-now',
  'fail-payment',
] as const satisfies readonly PortalAction[];

const PORTAL_ACTION = operation({
  tag: TAG,
  operationId: 'localPortalAction',
  summary: 'A portal button: cancel at period end, end the period now, or fail the next payment',
  description:
    'Emits `customer.subscription.updated` (cancel_at_period_end), `customer.subscription.deleted` (period ' +
    'ended now, canceled) or `invoice.payment_failed` with `customer.subscription.updated` (past_due), ' +
    'delivered to `POST /api/webhooks/stripe`; then the portal page again.',
  params: portalParams.extend({ action: z.enum(portalActions) }),
  errors: { 400: ['VALIDATION_FAILED'] },
  answers: {
    303: bodiless('The portal page again', { Location: '`/pay/local/portal/{token}`' }),
    404: portalGone,
  },
});
