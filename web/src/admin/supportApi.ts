import {
  adminTicketSchema,
  adminTicketsPageSchema,
  type TicketPriority,
  type TicketStatus,
  ticketMessageSchema,
} from '@sniplink/contracts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson, sendJson } from '../api/http';
import { auditQueryKey } from './auditApi';

const TICKETS = '/api/admin/tickets';
export const adminTicketsQueryKey = [TICKETS] as const;

export interface TicketFilters {
  status: TicketStatus | null;
  priority: TicketPriority | null;
}

const ticketPath = (id: string, rest: string) => `${TICKETS}/${encodeURIComponent(id)}/${rest}`;

/** GET /api/admin/tickets: one page (urgent first, then newest) and the counts. Admin queries never retry. */
export const adminTicketsQueryOptions = (filters: TicketFilters, page: number) =>
  queryOptions({
    queryKey: [...adminTicketsQueryKey, filters.status, filters.priority, page],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({
        ...(filters.status ? { status: filters.status } : {}),
        ...(filters.priority ? { priority: filters.priority } : {}),
        page: String(page),
      });
      return getJson(`${TICKETS}?${params}`, adminTicketsPageSchema, { signal });
    },
    placeholderData: keepPreviousData,
    retry: false,
  });

/** GET /api/admin/tickets/{id}/messages: the conversation, oldest first. */
export const adminTicketMessagesQueryOptions = (ticketId: string) =>
  queryOptions({
    queryKey: [...adminTicketsQueryKey, ticketId, 'messages'],
    queryFn: ({ signal }) =>
      getJson(ticketPath(ticketId, 'messages'), z.array(ticketMessageSchema), { signal }),
    retry: false,
  });

/** After any change: the list, its counts, the open conversation and the audit history. */
function useTicketChange<Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminTicketsQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey }),
      ]),
  });
}

/** PATCH /api/admin/tickets/{id}/assign, with no body: to the calling admin. */
export const useAssignTicket = () =>
  useTicketChange((id: string) => sendJson('PATCH', ticketPath(id, 'assign'), adminTicketSchema));

export const useReplyToTicket = () =>
  useTicketChange(({ id, message }: { id: string; message: string }) =>
    sendJson('POST', ticketPath(id, 'reply'), ticketMessageSchema, { message }),
  );

export const useSetTicketStatus = () =>
  useTicketChange(({ id, status }: { id: string; status: 'resolved' | 'closed' }) =>
    sendJson('PATCH', ticketPath(id, 'status'), adminTicketSchema, { status }),
  );
