import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { importsQueryOptions, useRefreshAfterImport } from './api';
import { ImportFlow, ImportProgress } from './ImportDialog';

/**
 * "Import links" on the home: opens the import dialog (`?imports=open`), and shows a running import's
 * progress bar, which goes on whether the page stays open or not.
 */
export function ImportCard() {
  const { place, go } = useDashboardPlace();
  const imports = useQuery(importsQueryOptions()).data ?? [];
  const running = imports.find((job) => job.status === 'running');
  // The import the dialog shows: the one picked in it, else one still waiting for its start or running.
  const [picked, setPicked] = useState<string | null>(null);
  const unfinished = imports.find((job) => job.status === 'ready' || job.status === 'running')?.id ?? null;
  const opened = place.imports === 'open';
  // Held once shown, so that the dialog shows the report when the import ends, not a new upload.
  useEffect(() => {
    if (opened && picked === null && unfinished !== null) setPicked(unfinished);
  }, [opened, picked, unfinished]);
  const jobId = picked ?? unfinished;
  const refresh = useRefreshAfterImport();
  const close = () => {
    go({ imports: undefined }, { replace: true });
    setPicked(null);
    void refresh();
  };
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" align="center">
        <Stack gap={2}>
          <Title order={2} fz="lg">
            Import links
          </Title>
          <Text size="sm" c="dimmed">
            Bring your links and their codes from Bitly, YOURLS and other shorteners.
          </Text>
        </Stack>
        <Button variant="default" onClick={() => go({ imports: 'open' })}>
          Import links
        </Button>
      </Group>
      {running && (
        <Stack mt="md" gap={4}>
          <ImportProgress job={running} />
        </Stack>
      )}
      <Modal opened={opened} onClose={close} title="Import links" centered size="lg">
        <Suspense fallback={null}>
          <ImportFlow jobId={jobId} onJob={setPicked} onClose={close} />
        </Suspense>
      </Modal>
    </Card>
  );
}
