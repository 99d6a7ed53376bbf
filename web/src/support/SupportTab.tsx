import {
  Button,
  Card,
  Group,
  Modal,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  type AdminTicket,
  type TicketCounts,
  type TicketPriority,
  type TicketStatus,
  ticketPriorities,
  ticketStatuses,
} from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminRoute } from '../admin/places';
import {
  adminTicketMessagesQueryOptions,
  adminTicketsQueryOptions,
  type TicketFilters,
  useAssignTicket,
  useReplyToTicket,
  useSetTicketStatus,
} from '../admin/supportApi';
import { ApiError } from '../api/http';
import { ListTable } from '../components/ListTable';
import { toast } from '../components/toast';
import { pageInAddress } from '../places';
import { ticketStatusLabels } from './api';
import { ReplyBox } from './ReplyBox';
import { MessageThread, TicketStatusBadge } from './SupportDialog';

const problemOf = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';

const createdLabel = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const capitalised = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/**
 * The Support tab: counts of open, in-progress and resolved tickets,
 * the table with its filters (a change returns to page 1) and "Assign to me", and a thread view where an
 * admin replies, resolves or closes. Filters, page and open ticket are in the address.
 */
export function SupportTab() {
  const { status, priority, page = 1, ticket: viewingId } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  // The console's loader has this page of the list and the open ticket's conversation.
  const { data: tickets } = useSuspenseQuery(adminTicketsQueryOptions({ status, priority }, page));
  // Filters and pages replace the place; opening a ticket adds one, so that back closes it.
  const filter = (changes: TicketFilters) =>
    void navigate({
      search: (previous) => ({ ...previous, ...changes, page: undefined }),
      replace: true,
    });
  const setPage = (next: number) =>
    void navigate({ search: (previous) => ({ ...previous, page: pageInAddress(next) }), replace: true });
  // The ticket last opened from the list, for as long as a change (resolving it under a status filter)
  // takes it off the list while its thread is open.
  const [opened, setOpened] = useState<AdminTicket | null>(null);
  const view = (ticket: AdminTicket) => {
    setOpened(ticket);
    void navigate({ search: (previous) => ({ ...previous, ticket: ticket.id }) });
  };
  const closeView = () =>
    void navigate({ search: (previous) => ({ ...previous, ticket: undefined }), replace: true });
  const pageCount = Math.max(1, Math.ceil(tickets.total / tickets.pageSize));
  // The open thread follows the list: its status and assignee as they stand after a change. A ticket
  // named in the address that is on neither this page of the list nor opened from it opens nothing.
  const current =
    viewingId === undefined
      ? null
      : (tickets.tickets.find((one) => one.id === viewingId) ?? (opened?.id === viewingId ? opened : null));
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        Support Tickets
      </Title>
      <TicketCountCards counts={tickets.counts} />
      <Group>
        <Select
          label="Status"
          placeholder="All statuses"
          clearable
          data={ticketStatuses.map((value) => ({ value, label: ticketStatusLabels[value] }))}
          value={status ?? null}
          onChange={(value) => filter({ status: (value as TicketStatus | null) ?? undefined })}
        />
        <Select
          label="Priority"
          placeholder="All priorities"
          clearable
          data={ticketPriorities.map((value) => ({ value, label: capitalised(value) }))}
          value={priority ?? null}
          onChange={(value) => filter({ priority: (value as TicketPriority | null) ?? undefined })}
        />
      </Group>
      {tickets.tickets.length === 0 ? (
        <Text c="dimmed">No tickets.</Text>
      ) : (
        <TicketTable tickets={tickets.tickets} onView={view} />
      )}
      {pageCount > 1 && (
        <Group justify="center">
          <Pagination total={pageCount} value={page} onChange={setPage} />
        </Group>
      )}
      <Modal
        opened={current !== null}
        onClose={closeView}
        title="Ticket"
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {current && <TicketThread ticket={current} />}
      </Modal>
    </Stack>
  );
}

function TicketCountCards({ counts }: { counts: TicketCounts }) {
  const cards: Array<[string, number]> = [
    ['Open', counts.open],
    ['In Progress', counts.in_progress],
    ['Resolved', counts.resolved],
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {cards.map(([label, count]) => (
        <Card key={label} withBorder role="group" aria-label={`${label} tickets`}>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          <Text fz="xl" fw={700}>
            {count}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function TicketTable({ tickets, onView }: { tickets: AdminTicket[]; onView: (ticket: AdminTicket) => void }) {
  return (
    <ListTable
      minWidth={820}
      verticalSpacing="sm"
      aria-label="Support tickets"
      headings={['Subject', 'User', 'Priority', 'Status', 'Created', 'Actions']}
    >
      {tickets.map((ticket) => (
        <TicketRow key={ticket.id} ticket={ticket} onView={() => onView(ticket)} />
      ))}
    </ListTable>
  );
}

function TicketRow({ ticket, onView }: { ticket: AdminTicket; onView: () => void }) {
  const assign = useAssignTicket();
  const assignToMe = () =>
    assign.mutate(ticket.id, {
      onSuccess: () => toast.success('Ticket assigned to you'),
      onError: (error) => toast.error('Error', problemOf(error)),
    });
  return (
    <Table.Tr>
      <Table.Td fw={500}>{ticket.subject}</Table.Td>
      <Table.Td>
        {/* Who asked, by address and by the id the rest of the console and the audit use. */}
        {ticket.userEmail && <Text size="sm">{ticket.userEmail}</Text>}
        <Text size="xs" c="dimmed" ff="monospace">
          {ticket.userId}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text
          size="sm"
          c={ticket.priority === 'urgent' ? 'red' : undefined}
          fw={ticket.priority === 'urgent' ? 700 : 400}
        >
          {capitalised(ticket.priority)}
        </Text>
      </Table.Td>
      <Table.Td>
        <TicketStatusBadge status={ticket.status} />
      </Table.Td>
      <Table.Td>{createdLabel(ticket.createdAt)}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={onView} aria-label={`View ticket ${ticket.subject}`}>
            View
          </Button>
          {ticket.assignedTo === null && ticket.status !== 'closed' && (
            <Button size="xs" onClick={assignToMe} loading={assign.isPending}>
              Assign to me
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function TicketThread({ ticket }: { ticket: AdminTicket }) {
  const { data: messages } = useSuspenseQuery(adminTicketMessagesQueryOptions(ticket.id));
  const setStatus = useSetTicketStatus();
  const change = (status: 'resolved' | 'closed') =>
    setStatus.mutate(
      { id: ticket.id, status },
      {
        onSuccess: () => toast.success(status === 'resolved' ? 'Ticket resolved' : 'Ticket closed'),
        onError: (error) => toast.error('Error', problemOf(error)),
      },
    );
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={0}>
          <Text fw={600}>{ticket.subject}</Text>
          <Text size="sm" c="dimmed">
            {ticket.userEmail ?? ticket.userId}
          </Text>
        </Stack>
        <TicketStatusBadge status={ticket.status} />
      </Group>
      <MessageThread messages={messages} ownLabel="User" />
      {ticket.status !== 'closed' && (
        <>
          <StaffReplyForm ticketId={ticket.id} />
          <Group justify="flex-end">
            {ticket.status !== 'resolved' && (
              <Button
                variant="light"
                color="green"
                onClick={() => change('resolved')}
                loading={setStatus.isPending}
              >
                Resolve
              </Button>
            )}
            <Button variant="default" onClick={() => change('closed')} loading={setStatus.isPending}>
              Close Ticket
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

function StaffReplyForm({ ticketId }: { ticketId: string }) {
  const reply = useReplyToTicket();
  return (
    <ReplyBox
      label="Reply as the Support Team"
      buttonLabel="Send Reply"
      pending={reply.isPending}
      send={(message) => reply.mutateAsync({ id: ticketId, message })}
      problem={problemOf}
    />
  );
}
