import { Alert, Loader, Modal, Table, Text, UnstyledButton } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { correlatedEventsQueryOptions } from './api';
import { useEventsNavigate } from './navigate';
import { actorLabel, momentLabel, pageStartOf } from './wording';

/** The events one request or job appended, across streams: each opens its stream's history at it. */
export function CorrelatedEventsDialog({ correlationId }: { correlationId: string | undefined }) {
  const go = useEventsNavigate();
  return (
    <Modal
      opened={correlationId !== undefined}
      onClose={() => go({ correlation: undefined })}
      title="Events of the same request"
      size="xl"
      centered
    >
      {correlationId && (
        <Suspense fallback={<Loader role="status" aria-label="Loading the request’s events" />}>
          <CorrelatedEvents correlationId={correlationId} />
        </Suspense>
      )}
    </Modal>
  );
}

function CorrelatedEvents({ correlationId }: { correlationId: string }) {
  const { data } = useSuspenseQuery(correlatedEventsQueryOptions(correlationId));
  const go = useEventsNavigate();
  if (!data) {
    return (
      <Alert color="yellow" title="No events" role="status">
        No event carries this correlation id.
      </Alert>
    );
  }
  return (
    <Table striped highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Event</Table.Th>
          <Table.Th>Stream</Table.Th>
          <Table.Th>Time</Table.Th>
          <Table.Th>Actor</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.events.map((event) => (
          <Table.Tr key={event.id}>
            <Table.Td>
              <UnstyledButton
                fw={600}
                onClick={() =>
                  go({
                    stream: event.streamId,
                    from: pageStartOf(event.revision) || undefined,
                    event: event.revision,
                    correlation: undefined,
                  })
                }
              >
                {event.type}
              </UnstyledButton>
            </Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {event.streamId}
              </Text>
            </Table.Td>
            <Table.Td>{momentLabel(event.occurredAt)}</Table.Td>
            <Table.Td>{actorLabel(event.actor)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
