import { Alert, Badge, Button, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ProjectionHealthEntry } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { projectionsQueryOptions, useRebuildProjection } from './api';

const STATE_COLORS: Record<ProjectionHealthEntry['state'], string> = {
  running: 'green',
  'catching up': 'yellow',
  rebuilding: 'blue',
  failed: 'red',
};

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });

function lagOf(entry: ProjectionHealthEntry): string {
  const events = `${number(entry.lagEvents)}${entry.lagCapped ? '+' : ''} events`;
  return entry.lagEvents === 0 ? 'none' : `${events}, ${number(entry.lagSeconds)} s`;
}

function rebuildOf(entry: ProjectionHealthEntry): string {
  const rebuild = entry.rebuild;
  if (!rebuild) return '—';
  if (rebuild.state === 'building' || rebuild.state === 'swapping') {
    const pace = rebuild.eventsPerSecond === null ? '' : `, ${number(rebuild.eventsPerSecond)} events/s`;
    const left = rebuild.etaSeconds === null ? '' : `, ${number(Math.ceil(rebuild.etaSeconds))} s left`;
    return `${rebuild.state}: ${number(rebuild.applied)} events${pace}${left}`;
  }
  if (rebuild.state === 'failed') return `failed: ${rebuild.error ?? 'unknown error'}`;
  const swap = rebuild.swapMs === null ? '' : `, swap ${rebuild.swapMs.toFixed(1)} ms`;
  return `done: ${number(rebuild.applied)} events${swap}`;
}

/**
 * Every read model's health, refreshed every two seconds: state, position, lag, the process running it,
 * its last error, and its rebuild (started here, with a confirmation) with its pace and time left.
 */
export function ProjectionsPanel() {
  const { data, error } = useQuery(projectionsQueryOptions());
  const rebuild = useRebuildProjection();
  const [asked, setAsked] = useState<string | null>(null);

  const confirm = () => {
    const name = asked;
    setAsked(null);
    if (!name) return;
    rebuild.mutate(name, {
      onSuccess: () =>
        toast.info('Rebuild started', `The ${name} read model is being rebuilt beside the live one.`),
      onError: (failure) =>
        toast.error('Rebuild not started', failure instanceof ApiError ? failure.message : String(failure)),
    });
  };

  if (error) return <Alert color="red">The projections could not be read: {error.message}</Alert>;
  if (!data) return <Text c="dimmed">Loading the projections…</Text>;
  return (
    <Stack gap="sm">
      <Table striped highlightOnHover aria-label="Projections">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Projection</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Version</Table.Th>
            <Table.Th>Position / head</Table.Th>
            <Table.Th>Lag</Table.Th>
            <Table.Th>Process</Table.Th>
            <Table.Th>Rebuild</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.projections.map((entry) => (
            <Table.Tr key={entry.name}>
              <Table.Td>{entry.name}</Table.Td>
              <Table.Td>
                <Badge color={STATE_COLORS[entry.state]} variant="light">
                  {entry.state}
                </Badge>
                {entry.state === 'failed' && entry.lastError && (
                  <Text size="xs" c="red" role="alert">
                    {entry.lastError}
                    {entry.lastErrorAt && ` (${new Date(entry.lastErrorAt).toLocaleString()})`}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{entry.version}</Table.Td>
              <Table.Td>
                {entry.position ?? '—'} / {entry.head}
              </Table.Td>
              <Table.Td>{lagOf(entry)}</Table.Td>
              <Table.Td>{entry.holder ?? 'none'}</Table.Td>
              <Table.Td>{rebuildOf(entry)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  disabled={entry.state === 'rebuilding'}
                  onClick={() => setAsked(entry.name)}
                >
                  Rebuild
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Modal opened={asked !== null} onClose={() => setAsked(null)} title={`Rebuild ${asked ?? ''}?`}>
        <Text size="sm">
          The read model is built again from the whole event log beside the live one, which keeps answering
          until the new copy is swapped in.
        </Text>
        <DialogActions mt="md" onCancel={() => setAsked(null)} onClick={confirm}>
          Rebuild
        </DialogActions>
      </Modal>
    </Stack>
  );
}
