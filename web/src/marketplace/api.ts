import { marketplaceSlugSchema } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../api/http';

export const marketplaceSlugsQueryKey = ['/api/marketplace/premium-slugs'] as const;

/** GET /api/marketplace/premium-slugs: the slugs for sale. Marketplace calls retry once (user-app.md section 7). */
export const marketplaceSlugsQueryOptions = () =>
  queryOptions({
    queryKey: marketplaceSlugsQueryKey,
    queryFn: ({ signal }) =>
      getJson('/api/marketplace/premium-slugs', z.array(marketplaceSlugSchema), { signal }),
    retry: 1,
  });
