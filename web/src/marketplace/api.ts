import {
  marketplaceSlugDetailSchema,
  marketplaceSlugSchema,
  ownedPremiumSlugSchema,
  type PremiumPaymentIntent,
  premiumPaymentIntentSchema,
  premiumPurchaseSchema,
} from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, getJson, sendJson } from '../api/http';

export const marketplaceSlugsQueryKey = ['/api/marketplace/premium-slugs'] as const;

/** GET /api/marketplace/premium-slugs: the slugs for sale. Marketplace calls retry once. */
export const marketplaceSlugsQueryOptions = () =>
  queryOptions({
    queryKey: marketplaceSlugsQueryKey,
    queryFn: ({ signal }) =>
      getJson('/api/marketplace/premium-slugs', z.array(marketplaceSlugSchema), { signal }),
    retry: 1,
  });

/** GET /api/marketplace/premium-slugs/{id}: the slug the checkout page sells. */
export const marketplaceSlugQueryOptions = (slugId: string) =>
  queryOptions({
    queryKey: ['/api/marketplace/premium-slugs/{id}', slugId],
    queryFn: ({ signal }) =>
      getJson(`/api/marketplace/premium-slugs/${encodeURIComponent(slugId)}`, marketplaceSlugDetailSchema, {
        signal,
      }),
    retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status === 404),
  });

/**
 * POST /api/marketplace/premium-slugs/{id}/payment-intent: holds the slug for 15 minutes and makes its
 * payment. Asked once per visit of the checkout page (the same hold answers the same payment again).
 */
export const paymentIntentQueryOptions = (slugId: string) =>
  queryOptions({
    queryKey: ['/api/marketplace/premium-slugs/{id}/payment-intent', slugId],
    queryFn: () =>
      sendJson(
        'POST',
        `/api/marketplace/premium-slugs/${encodeURIComponent(slugId)}/payment-intent`,
        premiumPaymentIntentSchema,
      ),
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

/** GET /api/marketplace/purchases/{paymentIntentId}: the purchase the success page confirms. */
export const purchaseQueryOptions = (paymentIntentId: string, slug: string | undefined) =>
  queryOptions({
    queryKey: ['/api/marketplace/purchases', paymentIntentId],
    queryFn: ({ signal }) =>
      getJson(
        `/api/marketplace/purchases/${encodeURIComponent(paymentIntentId)}${slug ? `?slug=${encodeURIComponent(slug)}` : ''}`,
        premiumPurchaseSchema,
        { signal },
      ),
    retry: 1,
    // The provider's event may come after the buyer lands here: asked again until it has.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 3_000 : false),
  });

const myPremiumSlugsQueryKey = ['/api/marketplace/my-premium-slugs'] as const;

/** GET /api/marketplace/my-premium-slugs: the slugs the signed-in user owns (retried once, as every marketplace call). */
export const myPremiumSlugsQueryOptions = () =>
  queryOptions({
    queryKey: myPremiumSlugsQueryKey,
    queryFn: ({ signal }) =>
      getJson('/api/marketplace/my-premium-slugs', z.array(ownedPremiumSlugSchema), { signal }),
    retry: 1,
  });

/** PUT /api/marketplace/premium-slugs/{slug}/url: the owner sets (a URL) or removes (null) the target. */
export function useSetPremiumSlugUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, url }: { slug: string; url: string | null }) =>
      sendJson(
        'PUT',
        `/api/marketplace/premium-slugs/${encodeURIComponent(slug)}/url`,
        ownedPremiumSlugSchema,
        {
          url,
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myPremiumSlugsQueryKey }),
  });
}
