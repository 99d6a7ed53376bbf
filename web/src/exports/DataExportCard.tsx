import { Alert, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { type DataExport, EXPORT_VALID_HOURS } from '@sniplink/contracts';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { toast } from '../components/toast';
import { exportDownloadUrl, latestExportQueryOptions, useStartExport } from './api';

/** Profile's "Your data": build a ZIP of everything the account holds, follow it, download it. */
export function DataExportCard() {
  const latest = useQuery(latestExportQueryOptions()).data?.export ?? null;
  const start = useStartExport();
  const begin = () =>
    start.mutate(undefined, {
      onError: () => toast.error('Export failed', 'Could not start the export. Please try again.'),
    });

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="lg" mb="xs">
        Your data
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        A ZIP of your profile, your links with their tags and settings, their clicks per day, and your support
        tickets, as JSON and CSV. The download link works for {EXPORT_VALID_HOURS} hours.
      </Text>
      {latest?.status === 'building' ? (
        <ExportProgress latest={latest} />
      ) : (
        <Stack gap="sm">
          {latest?.status === 'failed' && (
            <Alert color="red" title="The export did not finish">
              Start it again: nothing was lost.
            </Alert>
          )}
          {latest?.status === 'ready' && <ReadyExport latest={latest} />}
          <Group>
            <Button
              variant={latest?.status === 'ready' ? 'default' : 'filled'}
              loading={start.isPending}
              onClick={begin}
            >
              {latest?.status === 'ready' ? 'Make a new export' : 'Download my data'}
            </Button>
          </Group>
        </Stack>
      )}
    </Card>
  );
}

function ExportProgress({ latest }: { latest: DataExport }) {
  const percent = Math.round((latest.done / Math.max(latest.total, 1)) * 100);
  return (
    <Stack gap={6}>
      <Text size="sm" id="export-progress-label">
        Preparing your data: {latest.done} of {latest.total} parts
      </Text>
      <Progress value={percent} aria-labelledby="export-progress-label" animated />
    </Stack>
  );
}

const sizeFormat = new Intl.NumberFormat(undefined, {
  style: 'unit',
  unit: 'kilobyte',
  maximumFractionDigits: 1,
});
const untilFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function ReadyExport({ latest }: { latest: DataExport }) {
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm">
        Ready ({sizeFormat.format((latest.size ?? 0) / 1024)})
        {latest.expiresAt && `, until ${untilFormat.format(new Date(latest.expiresAt))}`}
      </Text>
      <Button
        component="a"
        href={exportDownloadUrl(latest.id)}
        download
        leftSection={<IconDownload size={16} aria-hidden />}
      >
        Download ZIP
      </Button>
    </Group>
  );
}
