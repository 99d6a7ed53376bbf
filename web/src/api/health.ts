import type { Liveness, Readiness } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './http';

export const livenessQueryOptions = () =>
  queryOptions({
    queryKey: ['/healthz'],
    queryFn: ({ signal }) => getJson<Liveness>('/healthz', { signal }),
  });

/** /readyz answers 503 with the same body when a check fails: that is a result to show, not an error. */
export const readinessQueryOptions = () =>
  queryOptions({
    queryKey: ['/readyz'],
    queryFn: ({ signal }) => getJson<Readiness>('/readyz', { signal, acceptStatuses: [503] }),
  });
