import {
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { upperFirst } from '@mantine/hooks';
import {
  TICKET_MESSAGE_MAX,
  TICKET_SUBJECT_MAX,
  type Ticket,
  type TicketMessage,
  type TicketPriority,
  ticketPriorities,
} from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { relativeDay } from '../components/dates';
import { ListTable } from '../components/ListTable';
import { toast } from '../components/toast';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import {
  ticketMessagesQueryOptions,
  ticketStatusColor,
  ticketStatusLabels,
  ticketsQueryOptions,
  useCloseTicket,
  useOpenTicket,
  usePostTicketMessage,
} from './api';
import { ReplyBox } from './ReplyBox';

const priorityLabels: Record<TicketPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};
const priorityOptions = ticketPriorities.map((value) => ({ value, label: priorityLabels[value] }));

// Alone in its cell: "Today", "3 days ago".
const createdLabel = (iso: string) => upperFirst(relativeDay(iso, new Date()));

/**
 * The Support Center: the user's tickets, a form to open one, and a conversation
 * per ticket where the staff's messages are labelled "Support Team".
 */
export function SupportDialog() {
  const { place, go } = useDashboardPlace();
  const openTicketId = place.ticket ?? null;
  // Closing leaves no trace in the history: the back button returns to before the dialog opened.
  const close = () => go({ support: undefined, ticket: undefined }, { replace: true });
  return (
    <Modal
      opened={place.support === 'open' || openTicketId !== null}
      onClose={close}
      title="Support Center"
      centered
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close Support Center' }}
    >
      <SupportCenter
        ticketId={openTicketId}
        onOpen={(ticketId) => go({ support: undefined, ticket: ticketId })}
        onBack={() => go({ support: 'open', ticket: undefined })}
      />
    </Modal>
  );
}

/** The open ticket's conversation, else the form and the list: a ticket that is not the user's opens none. */
function SupportCenter({
  ticketId,
  onOpen,
  onBack,
}: {
  ticketId: string | null;
  onOpen: (ticketId: string) => void;
  onBack: () => void;
}) {
  // The route's loader has the tickets and the open one's conversation: the dialog is a place.
  const { data: tickets } = useSuspenseQuery(ticketsQueryOptions());
  const ticket = tickets.find((one) => one.id === ticketId);
  if (ticket) return <TicketConversation ticket={ticket} onBack={onBack} />;
  return (
    <Stack gap="lg">
      <NewTicketForm />
      <TicketList tickets={tickets} onOpen={onOpen} />
    </Stack>
  );
}

function TicketList({ tickets, onOpen }: { tickets: Ticket[]; onOpen: (ticketId: string) => void }) {
  if (tickets.length === 0) return <Text c="dimmed">You have no support tickets yet.</Text>;
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Your tickets
      </Title>
      <ListTable
        minWidth={520}
        verticalSpacing="xs"
        aria-label="Your support tickets"
        highlightOnHover
        headings={['Subject', 'Priority', 'Status', 'Created', { hidden: 'Actions' }]}
      >
        {tickets.map((ticket) => (
          <TicketRow key={ticket.id} ticket={ticket} onOpen={() => onOpen(ticket.id)} />
        ))}
      </ListTable>
    </Stack>
  );
}

function TicketRow({ ticket, onOpen }: { ticket: Ticket; onOpen: () => void }) {
  return (
    <Table.Tr>
      <Table.Td fw={500}>{ticket.subject}</Table.Td>
      <Table.Td>{priorityLabels[ticket.priority]}</Table.Td>
      <Table.Td>
        <TicketStatusBadge status={ticket.status} />
      </Table.Td>
      <Table.Td>{createdLabel(ticket.createdAt)}</Table.Td>
      <Table.Td>
        <Button size="xs" variant="light" onClick={onOpen} aria-label={`View ticket ${ticket.subject}`}>
          View
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

export function TicketStatusBadge({ status }: { status: Ticket['status'] }) {
  return (
    // Light yellow's own text is too pale to read (WCAG contrast): dark text on the yellow badge.
    <Badge
      color={ticketStatusColor(status)}
      variant="light"
      c={status === 'in_progress' ? 'dark.7' : undefined}
    >
      {ticketStatusLabels[status]}
    </Badge>
  );
}

function NewTicketForm() {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [priority, setPriority] = useState<TicketPriority>('medium');
  const openTicket = useOpenTicket();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!subject.trim() || !message.trim()) return;
    openTicket.mutate(
      { subject, message, priority },
      {
        onSuccess: () => {
          toast.success('Support Ticket Created');
          setSubject('');
          setMessage('');
          setPriority('medium');
        },
        onError: () => toast.error('Error', 'Failed to create support ticket. Please try again.'),
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="New support ticket">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Open a ticket
        </Title>
        <TextInput
          label="Subject"
          required
          maxLength={TICKET_SUBJECT_MAX}
          value={subject}
          onChange={(event) => setSubject(event.currentTarget.value)}
        />
        <Select
          label="Priority"
          data={priorityOptions}
          value={priority}
          allowDeselect={false}
          onChange={(value) => value && setPriority(value as TicketPriority)}
        />
        <Textarea
          label="Message"
          required
          autosize
          minRows={3}
          maxLength={TICKET_MESSAGE_MAX}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={openTicket.isPending} disabled={!subject.trim() || !message.trim()}>
            Submit Ticket
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TicketConversation({ ticket, onBack }: { ticket: Ticket; onBack: () => void }) {
  const { data: messages } = useSuspenseQuery(ticketMessagesQueryOptions(ticket.id));
  const closeTicket = useCloseTicket(ticket.id);
  const close = () =>
    closeTicket.mutate(undefined, {
      onSuccess: () => toast.success('Ticket Closed'),
      onError: () => toast.error('Error', 'Failed to close the ticket. Please try again.'),
    });
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Button variant="subtle" onClick={onBack}>
          Back to tickets
        </Button>
        {ticket.status !== 'closed' && (
          <Button variant="default" color="gray" onClick={close} loading={closeTicket.isPending}>
            Close Ticket
          </Button>
        )}
      </Group>
      <Group gap="sm">
        <Title order={3} size="h4">
          {ticket.subject}
        </Title>
        <TicketStatusBadge status={ticket.status} />
      </Group>
      <MessageThread messages={messages} ownLabel="You" />
      {ticket.status === 'closed' ? (
        <Text c="dimmed" size="sm">
          This ticket is closed.
        </Text>
      ) : (
        <ReplyForm ticketId={ticket.id} />
      )}
    </Stack>
  );
}

/** A conversation, oldest first: staff messages labelled "Support Team". */
export function MessageThread({ messages, ownLabel }: { messages: TicketMessage[]; ownLabel: string }) {
  return (
    <Stack gap="xs" role="group" aria-label="Conversation">
      {messages.map((message) => (
        <Paper
          key={message.id}
          withBorder
          p="sm"
          bg={message.isFromAdmin ? 'var(--mantine-color-blue-light)' : undefined}
        >
          <Group justify="space-between" mb={4}>
            <Text size="sm" fw={600}>
              {message.isFromAdmin ? 'Support Team' : ownLabel}
            </Text>
            <Text size="xs" c="dimmed">
              {new Date(message.createdAt).toLocaleString()}
            </Text>
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {message.message}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

function ReplyForm({ ticketId }: { ticketId: string }) {
  const post = usePostTicketMessage(ticketId);
  return (
    <ReplyBox
      label="Your reply"
      buttonLabel="Send Message"
      pending={post.isPending}
      send={(message) => post.mutateAsync(message)}
      problem={() => 'Failed to send message. Please try again.'}
    />
  );
}
