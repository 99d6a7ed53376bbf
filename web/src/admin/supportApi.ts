import { supportAdminEndpoints, type TicketPriority, type TicketStatus } from '@sniplink/contracts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';
import { auditQueryKey } from './auditApi';
import type { AdminSearch } from './places';

const { adminTickets, adminTicketMessages, assignTicket, replyAsSupport, setTicketStatus } =
  supportAdminEndpoints;
export const adminTicketsQueryKey = [adminTickets.path] as const;

export interface TicketFilters {
  status?: TicketStatus;
  priority?: TicketPriority;
}

/** GET /api/admin/tickets: one page (urgent first, then newest) and the counts. Admin queries never retry. */
export const adminTicketsQueryOptions = (filters: TicketFilters, page: number) =>
  queryOptions({
    queryKey: [...adminTicketsQueryKey, filters.status, filters.priority, page],
    queryFn: ({ signal }) =>
      call(adminTickets, { query: { status: filters.status, priority: filters.priority, page } }, { signal }),
    retry: false,
  });

/** GET /api/admin/tickets/{id}/messages: the conversation, oldest first. */
export const adminTicketMessagesQueryOptions = (ticketId: string) =>
  queryOptions({
    queryKey: [...adminTicketsQueryKey, ticketId, 'messages'],
    queryFn: ({ signal }) => call(adminTicketMessages, { params: { id: ticketId } }, { signal }),
    retry: false,
  });

/**
 * The Support tab at its place: the page of the filtered list, and the conversation of the ticket open
 * from it. The thread opens only for a ticket on that page, so another id in the address loads nothing
 * more.
 */
export async function loadSupportTab(
  queryClient: QueryClient,
  { status, priority, page, ticket }: AdminSearch,
): Promise<void> {
  const list = await queryClient.ensureQueryData(adminTicketsQueryOptions({ status, priority }, page ?? 1));
  if (ticket !== undefined && list.tickets.some((one) => one.id === ticket)) {
    await queryClient.ensureQueryData(adminTicketMessagesQueryOptions(ticket));
  }
}

/** After any change: the list, its counts, the open conversation and the audit history. */
const useTicketChange = <Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) =>
  useRefreshingMutation(mutationFn, [adminTicketsQueryKey, auditQueryKey]);

/** PATCH /api/admin/tickets/{id}/assign, with no body: to the calling admin. */
export const useAssignTicket = () => useTicketChange((id: string) => call(assignTicket, { params: { id } }));

export const useReplyToTicket = () =>
  useTicketChange(({ id, message }: { id: string; message: string }) =>
    call(replyAsSupport, { params: { id }, body: { message } }),
  );

export const useSetTicketStatus = () =>
  useTicketChange(({ id, status }: { id: string; status: 'resolved' | 'closed' }) =>
    call(setTicketStatus, { params: { id }, body: { status } }),
  );
