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
  purchases: endpoint('GET /api/billing/purchases', { 200: purchasesSchema }),
  startCheckout: endpoint(
    'POST /api/create-subscription',
    { 200: createSubscriptionAnswer },
    { body: createSubscriptionBody },
  ),
  openBillingPortal: endpoint('POST /api/billing/portal', { 200: billingPortalSchema }),
  confirmCheckout: endpoint(
    'GET /api/subscriptions/checkout/:sessionId',
    { 200: checkoutConfirmationSchema },
    { params: checkoutSessionParams },
  ),
  /** Called by the payment provider with its signed event; the server reads the raw bytes, not a schema. */
  receivePaymentWebhook: endpoint('POST /api/webhooks/stripe', {
    200: z.object({ received: z.literal(true) }),
  }),
};
