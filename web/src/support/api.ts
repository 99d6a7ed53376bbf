import { type OpenTicketBody, supportEndpoints, type TicketStatus } from '@sniplink/contracts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const { listTickets, openTicket, closeTicket, ticketMessages, replyToTicket } = supportEndpoints;
/** Every ticket query's key starts with the list's path: a change asks them all again. */
const TICKETS = listTickets.path;

/**
 * The signed-in user's tickets, newest first; the GET URL is the key. Unlike the rest
 * of the app's data, a ticket changes on the other side (staff answer it): asked again each time the
 * Support Center or a conversation opens, never polled.
 */
export const ticketsQueryOptions = () =>
  queryOptions({
    queryKey: [TICKETS] as const,
    queryFn: ({ signal }) => call(listTickets, {}, { signal }),
    staleTime: 0,
  });

/** One ticket's conversation, oldest first. */
export const ticketMessagesQueryOptions = (ticketId: string) =>
  queryOptions({
    queryKey: [TICKETS, ticketId, 'messages'] as const,
    queryFn: ({ signal }) => call(ticketMessages, { params: { id: ticketId } }, { signal }),
    staleTime: 0,
  });

/**
 * The Support Center at its place (`?support=open`, `?ticket=`): the user's tickets, and the open one's
 * conversation when it is one of them.
 */
export async function loadSupportCenter(
  queryClient: QueryClient,
  { support, ticket }: { support?: 'open'; ticket?: string },
): Promise<void> {
  if (support !== 'open' && ticket === undefined) return;
  const tickets = await queryClient.ensureQueryData(ticketsQueryOptions());
  const open = tickets.find((one) => one.id === ticket);
  if (open) await queryClient.ensureQueryData(ticketMessagesQueryOptions(open.id));
}

/** Colours of the status badge: open green, in progress yellow, anything else grey. */
export const ticketStatusColor = (status: TicketStatus) =>
  status === 'open' ? 'green' : status === 'in_progress' ? 'yellow' : 'gray';

export const ticketStatusLabels: Record<TicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  closed: 'Closed',
};

/** Opens a ticket; the list is asked again. */
export const useOpenTicket = () =>
  useRefreshingMutation((body: OpenTicketBody) => call(openTicket, { body }), [[TICKETS]]);

/** Replies on a ticket; its conversation and the list (a reply may reopen it) are asked again. */
export const usePostTicketMessage = (ticketId: string) =>
  useRefreshingMutation(
    (message: string) => call(replyToTicket, { params: { id: ticketId }, body: { message } }),
    [[TICKETS]],
  );

/** Closes one of the user's tickets. */
export const useCloseTicket = (ticketId: string) =>
  useRefreshingMutation(
    () => call(closeTicket, { params: { id: ticketId }, body: { status: 'closed' } }),
    [[TICKETS]],
  );
