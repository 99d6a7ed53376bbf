import { billingEndpoints, type CreateSubscriptionBody } from '@sniplink/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { announceSignedOutAndLogIn } from '../accounts/useSignedInUser';
import { call } from '../api/client';
import { toast } from '../components/toast';
import { billingPortalProblem } from './checkout';

/** POST /api/create-subscription: the checkout to send the browser to, or "already subscribed". */
export const useCreateSubscription = () =>
  useMutation({
    mutationFn: (body: CreateSubscriptionBody) => call(billingEndpoints.startCheckout, { body }),
  });

/**
 * Opens the provider's billing portal (cancel, change the card, invoices): POST /api/billing/portal, then
 * a navigation to the page it names. `opening` stays true while the browser leaves.
 */
export function useOpenBillingPortal() {
  const portal = useMutation({
    mutationFn: () => call(billingEndpoints.openBillingPortal),
  });
  const open = () =>
    portal.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => {
        const problem = billingPortalProblem(error);
        if (problem.signedOut) announceSignedOutAndLogIn();
        else toast.error(problem.title, problem.message);
      },
    });
  return { open, opening: portal.isPending || portal.isSuccess };
}

/** Whether this server sells anything (PAYMENTS=off: no); asked once per visit. */
const purchasesQueryOptions = () =>
  queryOptions({
    queryKey: [billingEndpoints.purchases.path],
    queryFn: ({ signal }) => call(billingEndpoints.purchases, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The sentence to show instead of a purchase button when this server sells nothing; null otherwise. */
export function usePurchasesDisabled(): string | null {
  const { data } = useQuery(purchasesQueryOptions());
  return data && !data.enabled ? data.message : null;
}
