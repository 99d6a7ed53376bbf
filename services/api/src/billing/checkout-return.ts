import { billingEndpoints, type CheckoutConfirmation, userStream } from '@sniplink/contracts';
import { isUserProAt, NotFoundError, userDecider } from '@sniplink/domain';
import { type Clock, type EventStore, type Logger, loadState } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes } from '../http/route-schema';
import { atProvider } from '../shared/at-provider';
import type { CheckoutSnapshot, PaymentProvider } from './provider';

export interface CheckoutReturnDeps {
  payments: PaymentProvider;
  eventStore: EventStore;
  /** Says whether the user is Pro now. */
  clock: Clock;
  log: Logger;
}

/** One answer for a checkout that is not there and one that is someone else's: neither is told apart. */
const NOT_THIS_USERS = 'We could not confirm this payment';

/**
 * The checkout a user comes back from (`/subscribe?payment=success&session_id=…`) as the provider holds
 * it. The address is the user's to type, so the page says "Payment Successful!" only on this answer:
 * the session must be this user's and paid, and the user Pro.
 */
export class CheckoutReturns {
  constructor(private readonly deps: CheckoutReturnDeps) {}

  async confirm(userId: string, sessionId: string): Promise<CheckoutConfirmation> {
    const checkout = await atProvider(this.deps, () => this.deps.payments.retrieveCheckout(sessionId));
    if (checkout?.userId !== userId) throw new NotFoundError(NOT_THIS_USERS);
    return { sessionId, status: await this.statusOf(userId, checkout) };
  }

  /** Paid but not yet Pro: the provider's event that applies the plan has not arrived yet. */
  private async statusOf(
    userId: string,
    checkout: CheckoutSnapshot,
  ): Promise<CheckoutConfirmation['status']> {
    if (checkout.status !== 'complete') return checkout.status;
    if (!checkout.paid) return 'processing';
    const account = await loadState(this.deps.eventStore, userStream.id(userId), userDecider);
    return isUserProAt(account, this.deps.clock.now()) ? 'paid' : 'processing';
  }
}

export interface CheckoutReturnRoutesDeps {
  checkouts: CheckoutReturns;
  sessions: SessionStore;
}

/** `GET /api/subscriptions/checkout/{sessionId}`: what became of the checkout the user came back from. */
export async function checkoutReturnRoutes(
  app: FastifyInstance,
  { checkouts }: CheckoutReturnRoutesDeps,
): Promise<void> {
  const route = featureRoutes(billingEndpoints, { tag: 'Billing' });
  app.withTypeProvider<ZodTypeProvider>().route({
    ...route('confirmCheckout', {
      summary: 'Confirm the checkout the user came back from',
      description:
        "`paid`: paid, and the user is Pro; `processing`: completed, the plan not applied yet (ask again shortly); `open`: not paid; `expired`. A session that is not the signed-in user's, or none, is a 404.",
      session: 'required',
      answers: { 200: 'The checkout as the provider holds it' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return checkouts.confirm(userId, request.params.sessionId);
    },
  });
}
