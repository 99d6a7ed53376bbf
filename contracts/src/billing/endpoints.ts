import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  billingPortalSchema,
  checkoutConfirmationSchema,
  checkoutSessionParams,
  createSubscriptionAnswer,
  createSubscriptionBody,
  purchasesSchema,
} from './api';

/** Plans and payments: starting a checkout, the provider's portal, coming back, and the provider's events. */
export const billingEndpoints = {
  purchases: endpoint({
    method: 'GET',
    path: '/api/billing/purchases',
    answers: { 200: purchasesSchema },
  }),
  startCheckout: endpoint({
    method: 'POST',
    path: '/api/create-subscription',
    body: createSubscriptionBody,
    answers: { 200: createSubscriptionAnswer },
  }),
  openBillingPortal: endpoint({
    method: 'POST',
    path: '/api/billing/portal',
    answers: { 200: billingPortalSchema },
  }),
  confirmCheckout: endpoint({
    method: 'GET',
    path: '/api/subscriptions/checkout/:sessionId',
    params: checkoutSessionParams,
    answers: { 200: checkoutConfirmationSchema },
  }),
  /** Called by the payment provider with its signed event; the server reads the raw bytes, not a schema. */
  receivePaymentWebhook: endpoint({
    method: 'POST',
    path: '/api/webhooks/stripe',
    answers: { 200: z.object({ received: z.literal(true) }) },
  }),
};
