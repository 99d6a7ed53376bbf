import { livenessSchema, readinessSchema } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './http';

export const livenessQueryOptions = () =>
  queryOptions({
    queryKey: ['/healthz'],
    queryFn: ({ signal }) => getJson('/healthz', livenessSchema, { signal }),
  });

/** /readyz answers 503 with the same body when a check fails: that is a result to show, not an error. */
export const readinessQueryOptions = () =>
  queryOptions({
    queryKey: ['/readyz'],
    queryFn: ({ signal }) => getJson('/readyz', readinessSchema, { signal, acceptStatuses: [503] }),
  });
