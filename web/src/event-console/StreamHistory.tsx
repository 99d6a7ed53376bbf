import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Timeline,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  type ConsoleEvent,
  ENCRYPTED_PLACEHOLDER,
  STREAM_EVENTS_DEFAULT_LIMIT,
} from '@sniplink/contracts/event-console/api';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { toast } from '../components/toast';
import { problemOf, stateAfterQueryOptions, streamEventsQueryOptions, useRevealEvent } from './api';
import { useEventsNavigate } from './navigate';
import { actorLabel, channelLabel, momentLabel } from './wording';

/** One stream's events as a timeline beside the selected event's details and the state right after it. */
export function StreamHistory({
  streamId,
  from,
  selected,
}: {
  streamId: string;
  from: number;
  selected: number | undefined;
}) {
  const { data } = useSuspenseQuery(streamEventsQueryOptions(streamId, from));
  const go = useEventsNavigate();
  if (!data) {
    return (
      <Alert color="yellow" title="No such stream" role="status">
        The event log holds no events for “{streamId}”.
      </Alert>
    );
  }
  const chosen = data.events.find((event) => event.revision === selected);
  return (
    <Stack gap="sm">
      <Title order={3} size="h4" ff="monospace">
        {streamId}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="sm">
          <Timeline
            active={chosen ? data.events.indexOf(chosen) : -1}
            bulletSize={14}
            lineWidth={2}
            aria-label="Event timeline"
          >
            {data.events.map((event) => (
              <Timeline.Item
                key={event.id}
                title={
                  <UnstyledButton
                    onClick={() => go({ event: event.revision })}
                    aria-pressed={event.revision === selected}
                    fw={600}
                  >
                    {event.type}
                  </UnstyledButton>
                }
              >
                <Text size="sm" c="dimmed">
                  {momentLabel(event.occurredAt)} · {actorLabel(event.actor)}
                  {channelLabel(event.channel) ? ` (${channelLabel(event.channel)})` : ''}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
          <Group gap="sm">
            {from > 0 && (
              <Button
                variant="default"
                size="xs"
                onClick={() =>
                  go({ from: Math.max(0, from - STREAM_EVENTS_DEFAULT_LIMIT) || undefined, event: undefined })
                }
              >
                Earlier events
              </Button>
            )}
            {data.next !== null && (
              <Button
                variant="default"
                size="xs"
                onClick={() => go({ from: data.next ?? undefined, event: undefined })}
              >
                Later events
              </Button>
            )}
          </Group>
        </Stack>
        {chosen ? (
          <EventDetails key={chosen.id} event={chosen} foldable={data.foldable} />
        ) : (
          <Text c="dimmed">Choose an event to see its details and the state right after it.</Text>
        )}
      </SimpleGrid>
    </Stack>
  );
}

/** The event's metadata and data (personal values hidden until revealed), then the state right after it. */
function EventDetails({ event, foldable }: { event: ConsoleEvent; foldable: boolean }) {
  const go = useEventsNavigate();
  const reveal = useRevealEvent();
  const [revealed, setRevealed] = useState<ConsoleEvent | null>(null);
  const shown = revealed ?? event;
  const facts: [string, string][] = [
    ['Time', momentLabel(event.occurredAt)],
    ['Actor', actorLabel(event.actor)],
    ['Way in', channelLabel(event.channel) ?? 'the user’s own'],
    ['Revision', String(event.revision)],
    ['Version', String(event.version)],
    ['Position', event.position],
    ['Correlation id', event.correlationId ?? '—'],
    ['Causation id', event.causationId ?? '—'],
  ];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Event details">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>{event.type}</Title>
          {shown.revealed && <Badge color="orange">Personal data shown</Badge>}
        </Group>
        <Table withRowBorders={false} verticalSpacing={2}>
          <Table.Tbody>
            {facts.map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Th w={140}>{name}</Table.Th>
                <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group gap="sm">
          {event.correlationId && (
            <Button
              variant="light"
              size="xs"
              onClick={() => go({ correlation: event.correlationId ?? undefined })}
            >
              Events of the same request
            </Button>
          )}
          {event.personalFields.length > 0 && !shown.revealed && (
            <Button
              variant="light"
              color="orange"
              size="xs"
              loading={reveal.isPending}
              onClick={() =>
                reveal.mutate(event, {
                  onSuccess: setRevealed,
                  onError: (error) => toast.error('Failed to reveal personal data', problemOf(error)),
                })
              }
            >
              Reveal personal data
            </Button>
          )}
        </Group>
        {event.personalFields.length > 0 && !shown.revealed && (
          <Text size="xs" c="dimmed">
            Personal values show as {ENCRYPTED_PLACEHOLDER}. Revealing them is recorded in the audit history.
          </Text>
        )}
        <Title order={5}>Data</Title>
        <Code block aria-label="Event data">
          {JSON.stringify(shown.data, null, 2)}
        </Code>
        <Title order={5}>State after this event</Title>
        {foldable ? (
          <Suspense fallback={<Loader role="status" aria-label="Folding the events" size="sm" />}>
            <StateAfter streamId={event.streamId} revision={event.revision} />
          </Suspense>
        ) : (
          <Text size="sm" c="dimmed">
            No decider writes this stream, so it has no state of its own.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function StateAfter({ streamId, revision }: { streamId: string; revision: number }) {
  const { data } = useSuspenseQuery(stateAfterQueryOptions(streamId, revision));
  if (!data) return <Text c="dimmed">No state: the stream has no event at this revision.</Text>;
  return (
    <Code block aria-label="State after this event">
      {JSON.stringify(data.state, null, 2)}
    </Code>
  );
}
