import { marketplaceEndpoints, type PremiumPaymentIntent } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { call } from '../api/client';
import { ApiError, sendJson } from '../api/http';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const {
  premiumSlugsForSale,
  premiumSlug,
  startPremiumPurchase,
  premiumPurchase,
  ownedPremiumSlugs,
  setPremiumRedirect,
} = marketplaceEndpoints;

export const marketplaceSlugsQueryKey = [premiumSlugsForSale.path] as const;

/** The slugs for sale. Marketplace calls retry once. */
export const marketplaceSlugsQueryOptions = () =>
  queryOptions({
    queryKey: marketplaceSlugsQueryKey,
    queryFn: ({ signal }) => call(premiumSlugsForSale, {}, { signal }),
    retry: 1,
  });

/** The slug the checkout page sells. */
export const marketplaceSlugQueryOptions = (slugId: string) =>
  queryOptions({
    queryKey: [premiumSlug.path, slugId],
    queryFn: ({ signal }) => call(premiumSlug, { params: { id: slugId } }, { signal }),
    retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status === 404),
  });

/**
 * Holds the slug for 15 minutes and makes its payment. Asked once per visit of the checkout page (the same hold answers the same payment again).
 */
export const paymentIntentQueryOptions = (slugId: string) =>
  queryOptions({
    queryKey: [startPremiumPurchase.path, slugId],
    queryFn: () => call(startPremiumPurchase, { params: { id: slugId } }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

const localConfirmation = z.object({ status: z.string(), error: z.string().nullable() });

/** The local provider's test card form: Pay, Pay with a declined card, or Cancel. */
export const confirmLocalPayment = (intent: PremiumPaymentIntent, action: 'pay' | 'decline' | 'cancel') => {
  if (!intent.confirmUrl) throw new Error('This payment is not a local test payment');
  return sendJson('POST', intent.confirmUrl, localConfirmation, {
    clientSecret: intent.clientSecret,
    action,
  });
};

/** The purchase the success page confirms. */
export const purchaseQueryOptions = (paymentIntentId: string, slug: string | undefined) =>
  queryOptions({
    queryKey: [premiumPurchase.path, paymentIntentId],
    queryFn: ({ signal }) =>
      call(premiumPurchase, { params: { paymentIntentId }, query: { slug: slug || undefined } }, { signal }),
    retry: 1,
    // The provider's event may come after the buyer lands here: asked again until it has.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 3_000 : false),
  });

const myPremiumSlugsQueryKey = [ownedPremiumSlugs.path] as const;

/** The slugs the signed-in user owns (retried once, as every marketplace call). */
export const myPremiumSlugsQueryOptions = () =>
  queryOptions({
    queryKey: myPremiumSlugsQueryKey,
    queryFn: ({ signal }) => call(ownedPremiumSlugs, {}, { signal }),
    retry: 1,
  });

/** The owner sets (a URL) or removes (null) the target. */
export const useSetPremiumSlugUrl = () =>
  useRefreshingMutation(
    ({ slug, url }: { slug: string; url: string | null }) =>
      call(setPremiumRedirect, { params: { slug }, body: { url } }),
    [myPremiumSlugsQueryKey],
  );
