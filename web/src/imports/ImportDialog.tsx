import { Alert, Button, FileInput, Group, List, Progress, Radio, Select, Stack, Text } from '@mantine/core';
import type { ImportConflictChoice, ImportJob, ImportPreview, ImportProblem } from '@sniplink/contracts';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { DialogActions } from '../components/DialogActions';
import {
  importFormatsQueryOptions,
  importQueryOptions,
  uploadExport,
  useRefreshAfterImport,
  useStartImport,
} from './api';

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The import flow: the source and the file, the preview with its choices, the progress bar, the report. */
export function ImportFlow({
  jobId,
  onJob,
  onClose,
}: {
  jobId: string | null;
  onJob(id: string): void;
  onClose(): void;
}) {
  const job = useQuery({ ...importQueryOptions(jobId ?? ''), enabled: jobId !== null }).data;
  if (jobId === null || !job)
    return <UploadStep onUploaded={(uploaded) => onJob(uploaded.id)} onCancel={onClose} />;
  if (job.status === 'ready') return <PreviewStep job={job} onCancel={onClose} />;
  if (job.status === 'running') return <ProgressStep job={job} onClose={onClose} />;
  return <ReportStep job={job} onClose={onClose} />;
}

function UploadStep({ onUploaded, onCancel }: { onUploaded(job: ImportJob): void; onCancel(): void }) {
  const formats = useSuspenseQuery(importFormatsQueryOptions()).data;
  const [format, setFormat] = useState<string | null>(formats[0]?.id ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const upload = async () => {
    if (!format || !file) return;
    setSending(true);
    setError(null);
    try {
      onUploaded(await uploadExport(format, file));
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? (failure.serverMessage ?? failure.message)
          : 'The file could not be sent',
      );
    } finally {
      setSending(false);
    }
  };
  return (
    <Stack>
      <Text size="sm">Bring your links from another link shortener: upload the file it exports.</Text>
      <Select
        label="Source"
        data={formats.map((known) => ({ value: known.id, label: known.label }))}
        value={format}
        onChange={setFormat}
        allowDeselect={false}
      />
      <FileInput label="Export file" placeholder="Choose a file" value={file} onChange={setFile} clearable />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <DialogActions onCancel={onCancel} onClick={upload} disabled={!format || !file} loading={sending}>
        Preview
      </DialogActions>
    </Stack>
  );
}

function PreviewStep({ job, onCancel }: { job: ImportJob; onCancel(): void }) {
  const { preview } = job;
  const [conflicts, setConflicts] = useState<ImportConflictChoice>('skip');
  const start = useStartImport();
  const remaining = preview.allowanceRemaining;
  const capped = remaining !== null && remaining < preview.links;
  const begin = () => start.mutate({ id: job.id, body: { conflicts, ...(capped && { limit: remaining }) } });
  return (
    <Stack>
      <PreviewFigures preview={preview} />
      {preview.codesTaken > 0 && (
        <Radio.Group
          label="Links whose code is taken here"
          value={conflicts}
          onChange={(value) => setConflicts(value as ImportConflictChoice)}
        >
          <Stack gap={6} mt={6}>
            <Radio value="skip" label="Skip them" />
            <Radio value="new-code" label="Import them with a new code" />
          </Stack>
        </Radio.Group>
      )}
      {capped && (
        <Alert color="yellow">
          {remaining === 0
            ? 'Your plan allows no more links now.'
            : `Your plan allows ${count(remaining, 'more link')}${preview.allowancePeriod === 'month' ? ' this month' : ''}; import the first ${remaining.toLocaleString('en')}?`}
        </Alert>
      )}
      {start.error && (
        <Alert color="red" role="alert">
          {start.error instanceof ApiError
            ? (start.error.serverMessage ?? start.error.message)
            : 'The import could not start'}
        </Alert>
      )}
      <DialogActions
        onCancel={onCancel}
        onClick={begin}
        loading={start.isPending}
        disabled={preview.links === 0 || remaining === 0}
      >
        {capped ? `Import the first ${count(remaining, 'link')}` : `Import ${count(preview.links, 'link')}`}
      </DialogActions>
    </Stack>
  );
}

function PreviewFigures({ preview }: { preview: ImportPreview }) {
  return (
    <Stack gap="xs">
      <Text fw={600}>{count(preview.links, 'link')} to import</Text>
      <Text size="sm">
        {count(preview.rows, 'row')} read: {count(preview.codesTaken, 'code')} already taken here,{' '}
        {count(preview.invalid, 'invalid row')}.
      </Text>
      <Problems problems={preview.problems} total={preview.invalid} />
    </Stack>
  );
}

function Problems({ problems, total }: { problems: ImportProblem[]; total: number }) {
  if (problems.length === 0) return null;
  return (
    <Stack gap={4}>
      <List size="sm" spacing={2} aria-label="Rows not imported">
        {problems.slice(0, 20).map((problem) => (
          <List.Item key={problem.row}>
            Row {problem.row}: {problem.reason}
          </List.Item>
        ))}
      </List>
      {total > 20 && (
        <Text size="xs" c="dimmed">
          and {count(total - 20, 'more row')}
        </Text>
      )}
    </Stack>
  );
}

export function ImportProgress({ job }: { job: ImportJob }) {
  const { processed, total } = job.progress;
  const percent = total === 0 ? 100 : Math.round((processed / total) * 100);
  return (
    <Stack gap={4}>
      <Progress value={percent} aria-label="Import progress" size="lg" animated />
      <Text size="sm">
        {processed.toLocaleString('en')} of {count(total, 'link')} imported so far
      </Text>
    </Stack>
  );
}

function ProgressStep({ job, onClose }: { job: ImportJob; onClose(): void }) {
  return (
    <Stack>
      <ImportProgress job={job} />
      <Text size="sm" c="dimmed">
        You can close this window: the import goes on, and its report waits here.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

function ReportStep({ job, onClose }: { job: ImportJob; onClose(): void }) {
  const refresh = useRefreshAfterImport();
  const { progress } = job;
  const close = () => {
    void refresh();
    onClose();
  };
  return (
    <Stack>
      <Text fw={600} role="status">
        {job.status === 'done' ? 'Import finished' : 'The import stopped'}:{' '}
        {count(progress.imported + progress.renamed, 'link')} imported
      </Text>
      <Text size="sm">
        {count(progress.renamed, 'link')} with a new code, {count(progress.skipped, 'link')} skipped,{' '}
        {count(progress.failed, 'link')} not imported. {count(progress.importedClicks, 'imported click')} kept
        apart from the clicks Sniplink counts.
      </Text>
      <Problems problems={job.problems} total={job.problems.length} />
      <Group justify="flex-end">
        <Button onClick={close}>Done</Button>
      </Group>
    </Stack>
  );
}
