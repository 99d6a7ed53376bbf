import { AUDIT_PAGE_SIZE, auditAdminEndpoints } from '@sniplink/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { call } from '../api/client';

const { auditHistory } = auditAdminEndpoints;

/**
 * Every audit query's key starts with this: a console change that should show in an open history
 * invalidates it (`queryClient.invalidateQueries({ queryKey: auditQueryKey })`).
 */
export const auditQueryKey = [auditHistory.path] as const;

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
    queryFn: ({ pageParam, signal }) =>
      call(
        auditHistory,
        {
          query: {
            page: String(pageParam),
            pageSize: String(pageSize),
            actor: filter.actor || undefined,
            target: filter.target || undefined,
          },
        },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    retry: false,
    staleTime: 0,
  });
