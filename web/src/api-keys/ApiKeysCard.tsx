import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  API_KEY_NAME_MAX,
  type ApiKey,
  type ApiKeyScope,
  apiKeyScopeLabels,
  apiKeyScopes,
  type CreatedApiKey,
} from '@sniplink/contracts';
import { IconCopy } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { copyToClipboard } from '../components/CopyButton';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { ApiKeysTable } from './ApiKeysTable';
import { apiKeysQueryOptions, useCreateApiKey, useRevokeApiKey } from './api';

/** Profile's "API keys": make a key for a script, see the keys, revoke one. */
export function ApiKeysCard() {
  const keys = useSuspenseQuery(apiKeysQueryOptions()).data;
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="xs">
        <Title order={2} fz="lg">
          API keys
        </Title>
        <Button variant="default" onClick={() => setCreating(true)}>
          Create API key
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        A key lets a script or another app (a CMS, a shell) manage your links and read their analytics: send
        it as <Code>Authorization: Bearer &lt;key&gt;</Code>.
      </Text>
      {keys.length === 0 ? (
        <Text size="sm">No API keys yet: create one to use Sniplink from a script or another app.</Text>
      ) : (
        <ApiKeysTable keys={keys} minWidth={620} onRevoke={setRevoking} />
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create API key" centered>
        <CreateApiKeyFlow onDone={() => setCreating(false)} />
      </Modal>
      <RevokeApiKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

/** The form, then the key it made, once: the modal drops both when it closes. */
function CreateApiKeyFlow({ onDone }: { onDone: () => void }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return created ? (
    <ShownOnce apiKey={created} onDone={onDone} />
  ) : (
    <CreateApiKeyForm onCreated={setCreated} onCancel={onDone} />
  );
}

const EXPIRIES = [
  { value: 'never', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In one year' },
];
const DAY_MS = 24 * 60 * 60 * 1000;

function CreateApiKeyForm({
  onCreated,
  onCancel,
}: {
  onCreated: (key: CreatedApiKey) => void;
  onCancel: () => void;
}) {
  const create = useCreateApiKey();
  const form = useForm({
    initialValues: { name: '', scopes: ['links:read'] as string[], expiry: 'never' },
    validate: {
      name: (name) =>
        name.trim() === ''
          ? 'Give the key a name'
          : name.trim().length > API_KEY_NAME_MAX
            ? `At most ${API_KEY_NAME_MAX} characters`
            : null,
      scopes: (scopes) => (scopes.length === 0 ? 'Choose at least one scope' : null),
    },
  });
  const submit = form.onSubmit((values) =>
    create.mutate(
      {
        name: values.name.trim(),
        scopes: values.scopes as ApiKeyScope[],
        expiresAt:
          values.expiry === 'never'
            ? null
            : new Date(Date.now() + Number(values.expiry) * DAY_MS).toISOString(),
      },
      {
        onSuccess: onCreated,
        onError: (error) => {
          if (error instanceof ApiError && error.field && error.field in form.values) {
            form.setFieldError(error.field, error.serverMessage ?? 'Please check this field');
            return;
          }
          toast.error(
            'Key not created',
            error instanceof ApiError && error.code === 'CONFLICT' && error.serverMessage
              ? error.serverMessage
              : 'The key could not be created. Please try again.',
          );
        },
      },
    ),
  );
  return (
    <form aria-label="Create API key" noValidate onSubmit={submit}>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="What the key is for, e.g. CMS or deploy script"
          required
          maxLength={API_KEY_NAME_MAX}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Checkbox.Group label="Scopes" required {...form.getInputProps('scopes')}>
          <Stack gap="xs" mt="xs">
            {apiKeyScopes.map((scope) => (
              <Checkbox key={scope} value={scope} label={`${apiKeyScopeLabels[scope]} (${scope})`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Select label="Expires" data={EXPIRIES} allowDeselect={false} {...form.getInputProps('expiry')} />
        <DialogActions onCancel={onCancel} type="submit" loading={create.isPending}>
          Create key
        </DialogActions>
      </Stack>
    </form>
  );
}

function ShownOnce({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="yellow" title="Copy your key now">
        You won't see it again: Sniplink keeps only a fingerprint of it. If you lose it, revoke it and create
        another.
      </Alert>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all' }} aria-label="Your new API key">
          {apiKey.secret}
        </Code>
        <Tooltip label="Copy">
          <ActionIcon
            variant="light"
            size="lg"
            aria-label="Copy API key"
            onClick={() => void copyToClipboard(apiKey.secret, 'The API key is on your clipboard.')}
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

function RevokeApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const revoke = useRevokeApiKey();
  const confirm = () => {
    if (!apiKey) return;
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        toast.success('API key revoked', 'Scripts using it are refused from now on.');
        onClose();
      },
      onError: () => toast.error('Not revoked', 'The key could not be revoked. Please try again.'),
    });
  };
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title="Revoke API key" centered>
      <Text>
        Revoke <strong>{apiKey?.name}</strong>? Every script or app using it is refused from its next call.
        This cannot be undone.
      </Text>
      <DialogActions onCancel={onClose} mt="lg" color="red" loading={revoke.isPending} onClick={confirm}>
        Revoke key
      </DialogActions>
    </Modal>
  );
}
