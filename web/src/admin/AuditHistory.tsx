import { Button, Center, Stack, Table, Text } from '@mantine/core';
import type { AuditEntry } from '@sniplink/contracts';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { type AuditHistoryFilter, auditHistoryQueryOptions } from './auditApi';
import { actionWording, actorWording, detailsWording, targetWording } from './auditWording';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The audit history of one target (`target="user-{id}"`, as in the Users tab's View dialog) and/or one
 * acting admin (`actor`): when, who, what, newest first, with "Load more" for older entries.
 */
export function AuditHistory({ target, actor, pageSize }: AuditHistoryFilter & { pageSize?: number }) {
  // The route's loader has the first page; a failure is the page's error.
  const history = useSuspenseInfiniteQuery(auditHistoryQueryOptions({ target, actor }, pageSize));
  const entries = uniqueEntries(history.data.pages.flatMap((page) => page.entries));
  if (entries.length === 0) return <Text c="dimmed">No admin actions yet.</Text>;

  return (
    <Stack gap="xs">
      <Table striped withTableBorder fz="sm" aria-label="Admin actions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>What</Table.Th>
            {!target && <Table.Th>On</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{when(entry.occurredAt)}</Table.Td>
              <Table.Td>{actorWording(entry.actor)}</Table.Td>
              <Table.Td>
                <Text size="sm" title={entry.action}>
                  {actionWording(entry.action)}
                </Text>
                {detailsWording(entry.details) && (
                  <Text size="xs" c="dimmed">
                    {detailsWording(entry.details)}
                  </Text>
                )}
              </Table.Td>
              {!target && <Table.Td>{targetWording(entry.target)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {history.isFetchNextPageError && <Text c="red">Failed to load older entries.</Text>}
      {history.hasNextPage && (
        <Center>
          <Button
            variant="default"
            size="xs"
            loading={history.isFetchingNextPage}
            onClick={() => history.fetchNextPage()}
          >
            Load more
          </Button>
        </Center>
      )}
    </Stack>
  );
}

/** An entry made while older pages were being read shifts them by one: show each entry once. */
function uniqueEntries(entries: AuditEntry[]): AuditEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.id) && seen.add(entry.id));
}
