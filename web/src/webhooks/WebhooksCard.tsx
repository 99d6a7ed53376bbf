import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreatedWebhook,
  type Webhook,
  type WebhookEventType,
  webhookEventLabels,
  webhookEventTypes,
} from '@sniplink/contracts';
import { IconCopy } from '@tabler/icons-react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { copyToClipboard } from '../components/CopyButton';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useSendWebhookTest,
  webhookDeliveriesQueryOptions,
  webhooksQueryOptions,
} from './api';

/** Profile's "Webhooks": endpoints told of what happens in the account, signed, with their delivery logs. */
export function WebhooksCard() {
  const hooks = useSuspenseQuery(webhooksQueryOptions()).data;
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<Webhook | null>(null);
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="xs">
        <Title order={2} fz="lg">
          Webhooks
        </Title>
        <Button variant="default" onClick={() => setCreating(true)}>
          Create webhook
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Sniplink POSTs a signed JSON event to your endpoint when a link is created, changed, deleted or
        clicked, or Support replies to you. Check the <Code>Sniplink-Signature</Code> header with the signing
        secret.
      </Text>
      {hooks.length === 0 ? (
        <Text size="sm">No webhooks yet: create one to have another app told of your links.</Text>
      ) : (
        <Stack gap="xs">
          {hooks.map((hook) => (
            <Group key={hook.id} justify="space-between" wrap="nowrap">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text size="sm" ff="monospace" truncate>
                  {hook.url}
                </Text>
                <Text size="xs" c="dimmed">
                  {hook.events.join(', ')}
                </Text>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                {hook.status === 'disabled' && <Badge color="red">Disabled</Badge>}
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => setOpen(hook)}
                  aria-label={`Deliveries of ${hook.url}`}
                >
                  Deliveries
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create webhook" centered>
        <CreateWebhookFlow onDone={() => setCreating(false)} />
      </Modal>
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title="Webhook deliveries"
        size="lg"
        centered
      >
        {open && <WebhookDetails webhook={open} onDeleted={() => setOpen(null)} />}
      </Modal>
    </Card>
  );
}

function CreateWebhookFlow({ onDone }: { onDone: () => void }) {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return created ? (
    <SecretShownOnce webhook={created} onDone={onDone} />
  ) : (
    <CreateWebhookForm onCreated={setCreated} onCancel={onDone} />
  );
}

function CreateWebhookForm({
  onCreated,
  onCancel,
}: {
  onCreated: (webhook: CreatedWebhook) => void;
  onCancel: () => void;
}) {
  const create = useCreateWebhook();
  const form = useForm({
    initialValues: { url: '', events: ['link.created'] as string[] },
    validate: {
      url: (url) => (url.trim() === '' ? 'Enter the endpoint URL' : null),
      events: (events) => (events.length === 0 ? 'Choose at least one event' : null),
    },
  });
  const submit = form.onSubmit((values) =>
    create.mutate(
      { url: values.url.trim(), events: values.events as WebhookEventType[] },
      {
        onSuccess: onCreated,
        onError: (error) => {
          if (error instanceof ApiError && error.field && error.field in form.values) {
            form.setFieldError(error.field, error.serverMessage ?? 'Please check this field');
            return;
          }
          toast.error(
            'Webhook not created',
            error instanceof ApiError && error.serverMessage
              ? error.serverMessage
              : 'The webhook could not be created. Please try again.',
          );
        },
      },
    ),
  );
  return (
    <form aria-label="Create webhook" noValidate onSubmit={submit}>
      <Stack gap="md">
        <TextInput
          label="Endpoint URL"
          description="https://, on the public internet"
          placeholder="https://example.com/sniplink-events"
          required
          data-autofocus
          {...form.getInputProps('url')}
        />
        <Checkbox.Group label="Events" required {...form.getInputProps('events')}>
          <Stack gap="xs" mt="xs">
            {webhookEventTypes.map((type) => (
              <Checkbox key={type} value={type} label={`${webhookEventLabels[type]} (${type})`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <DialogActions onCancel={onCancel} type="submit" loading={create.isPending}>
          Create webhook
        </DialogActions>
      </Stack>
    </form>
  );
}

function SecretShownOnce({ webhook, onDone }: { webhook: CreatedWebhook; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="yellow" title="Copy your signing secret now">
        You won't see it again. Your receiver checks each delivery's signature with it.
      </Alert>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all' }} aria-label="Your webhook signing secret">
          {webhook.secret}
        </Code>
        <Tooltip label="Copy">
          <ActionIcon
            variant="light"
            size="lg"
            aria-label="Copy signing secret"
            onClick={() => void copyToClipboard(webhook.secret, 'The signing secret is on your clipboard.')}
          >
            <IconCopy size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/** The endpoint's last 100 attempts, "Send test event" and "Delete". */
function WebhookDetails({ webhook, onDeleted }: { webhook: Webhook; onDeleted: () => void }) {
  const { data: attempts = [] } = useQuery(webhookDeliveriesQueryOptions(webhook.id));
  const sendTest = useSendWebhookTest(webhook.id);
  const remove = useDeleteWebhook();
  return (
    <Stack gap="md">
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {webhook.url}
      </Text>
      {webhook.status === 'disabled' && (
        <Alert color="red" title="Disabled">
          Deliveries failed for 24 hours, so nothing more is sent. Fix the receiver, then create the webhook
          again.
        </Alert>
      )}
      <Group gap="xs">
        <Button
          variant="light"
          disabled={webhook.status === 'disabled'}
          loading={sendTest.isPending}
          onClick={() =>
            sendTest.mutate(undefined, {
              onSuccess: () => toast.success('Test event sent', 'Its delivery shows below in a moment.'),
              onError: () => toast.error('Not sent', 'The test event could not be sent. Please try again.'),
            })
          }
        >
          Send test event
        </Button>
        <Button
          color="red"
          variant="subtle"
          loading={remove.isPending}
          onClick={() =>
            remove.mutate(webhook.id, {
              onSuccess: () => {
                toast.success('Webhook deleted', 'Nothing more is sent to it.');
                onDeleted();
              },
              onError: () =>
                toast.error('Not deleted', 'The webhook could not be deleted. Please try again.'),
            })
          }
        >
          Delete
        </Button>
      </Group>
      {attempts.length === 0 ? (
        <Text size="sm">No deliveries yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label="Delivery log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Duration</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {attempts.map((attempt) => (
                <Table.Tr key={attempt.id}>
                  <Table.Td>{new Date(attempt.at).toLocaleString()}</Table.Td>
                  <Table.Td>{attempt.type}</Table.Td>
                  <Table.Td title={attempt.error ?? undefined}>{attempt.statusCode ?? 'No answer'}</Table.Td>
                  <Table.Td>{attempt.durationMs} ms</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
