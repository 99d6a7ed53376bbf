import { AUDIT_PAGE_SIZE, auditPageSchema } from '@sniplink/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { getJson } from '../api/http';

/**
 * Every audit query's key starts with this: a console change that should show in an open history
 * invalidates it (`queryClient.invalidateQueries({ queryKey: auditQueryKey })`).
 */
export const auditQueryKey = ['/api/admin/audit'] as const;

export interface AuditHistoryFilter {
  /** The acting admin's user id, or `operator`. */
  actor?: string;
  /** A stream id (`user-{id}`) or an id. */
  target?: string;
}

/**
 * The audit history, newest first, a page at a time ("Load more" fetches the next). A new filter is a
 * new query, so it starts again at page 1. Admin queries never retry, and a history is read afresh each
 * time it is shown.
 */
export const auditHistoryQueryOptions = (filter: AuditHistoryFilter, pageSize = AUDIT_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: [...auditQueryKey, { ...filter, pageSize }] as const,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ page: String(pageParam), pageSize: String(pageSize) });
      if (filter.actor) query.set('actor', filter.actor);
      if (filter.target) query.set('target', filter.target);
      return getJson(`/api/admin/audit?${query}`, auditPageSchema, { signal });
    },
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    retry: false,
    staleTime: 0,
  });
