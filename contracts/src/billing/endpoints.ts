import { z } from 'zod';
import { endpoint } from '../endpoint';
import {
  billingPortalSchema,
  checkoutConfirmationSchema,
  checkoutSessionParams,
  createSubscriptionAnswer,
  createSubscriptionBody,
} from './api';

/** Plans and payments: starting a checkout, the provider's portal, coming back, and the provider's events. */
export const billingEndpoints = {
  startCheckout: endpoint('POST /api/create-subscription', {
    body: createSubscriptionBody,
    answers: { 200: createSubscriptionAnswer },
  }),
  openBillingPortal: endpoint('POST /api/billing/portal', { answers: { 200: billingPortalSchema } }),
  confirmCheckout: endpoint('GET /api/subscriptions/checkout/:sessionId', {
    params: checkoutSessionParams,
    answers: { 200: checkoutConfirmationSchema },
  }),
  /** Called by the payment provider with its signed event; the server reads the raw bytes, not a schema. */
  receivePaymentWebhook: endpoint('POST /api/webhooks/stripe', {
    answers: { 200: z.object({ received: z.literal(true) }) },
  }),
};
