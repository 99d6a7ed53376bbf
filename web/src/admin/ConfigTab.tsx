import {
  Autocomplete,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { type ConfigEntry, type KnownSettingState, knownSettings } from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import {
  configEntriesQueryOptions,
  knownKeyHint,
  knownSettingsQueryOptions,
  serverMessageOf,
  useAddConfigEntry,
  useDeleteConfigEntry,
  useUpdateConfigEntry,
} from './configApi';

const knownKeys = Object.values(knownSettings).map((setting) => setting.key);

const formatUpdated = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Which dialog is open: adding, editing an entry, or confirming a deletion. */
type Dialog = { kind: 'add' } | { kind: 'edit'; entry: ConfigEntry } | { kind: 'delete'; entry: ConfigEntry };

/** The console's Config tab: a key-value table with add, edit and delete. */
export function ConfigTab() {
  const entries = useSuspenseQuery(configEntriesQueryOptions());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <div>
          <Title order={2} size="h3">
            Configuration
          </Title>
          <Text size="sm" c="dimmed">
            Known keys take effect at once, without a restart; any other key is kept as text.
          </Text>
        </div>
        <Button onClick={() => setDialog({ kind: 'add' })}>Add Entry</Button>
      </Group>
      <KnownSettingsTable />
      <ConfigTable
        entries={entries.data}
        onEdit={(entry) => setDialog({ kind: 'edit', entry })}
        onDelete={(entry) => setDialog({ kind: 'delete', entry })}
      />
      <Modal
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        onClose={close}
        title={dialog?.kind === 'edit' ? 'Edit Config Entry' : 'Add Config Entry'}
        centered
      >
        {/* The modal drops its content when closed: every opening starts from the entry as it is. */}
        {dialog?.kind === 'edit' ? <ConfigEntryForm entry={dialog.entry} onDone={close} /> : null}
        {dialog?.kind === 'add' ? <ConfigEntryForm onDone={close} /> : null}
      </Modal>
      <DeleteConfigEntryDialog entry={dialog?.kind === 'delete' ? dialog.entry : undefined} onClose={close} />
    </Stack>
  );
}

/** Every key the app reads, set or not: what it sets, the value in force and its default. */
function KnownSettingsTable() {
  const settings = useSuspenseQuery(knownSettingsQueryOptions());
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label="Settings the app reads">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Sets</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>Default</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {settings.data.map((setting) => (
            <Table.Tr key={setting.key}>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {setting.key}
                </Text>
              </Table.Td>
              <Table.Td>{setting.label}</Table.Td>
              <Table.Td>{setting.set ? setting.value : `${setting.value} (default)`}</Table.Td>
              <Table.Td>{defaultText(setting)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const defaultText = (setting: KnownSettingState) =>
  setting.defaultFrom ? `${setting.default} (${setting.defaultFrom})` : String(setting.default);

function ConfigTable({
  entries,
  onEdit,
  onDelete,
}: {
  entries: ConfigEntry[];
  onEdit(entry: ConfigEntry): void;
  onDelete(entry: ConfigEntry): void;
}) {
  if (entries.length === 0) {
    return <Text c="dimmed">No config entries yet: every known key is at its default.</Text>;
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label="Config entries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Updated</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.key}>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {entry.key}
                </Text>
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{entry.value}</Table.Td>
              <Table.Td>{entry.description ?? ''}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatUpdated(entry.updatedAt)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap" justify="flex-end">
                  <Button
                    size="xs"
                    variant="subtle"
                    aria-label={`Edit ${entry.key}`}
                    onClick={() => onEdit(entry)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${entry.key}`}
                    onClick={() => onDelete(entry)}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Add (no `entry`) or edit an entry: key and value required; the key is read-only while editing. */
function ConfigEntryForm({ entry, onDone }: { entry?: ConfigEntry; onDone(): void }) {
  const editing = entry !== undefined;
  const [key, setKey] = useState(entry?.key ?? '');
  const [value, setValue] = useState(entry?.value ?? '');
  const [description, setDescription] = useState(entry?.description ?? '');
  const [missing, setMissing] = useState<{ key?: boolean; value?: boolean }>({});
  const add = useAddConfigEntry();
  const update = useUpdateConfigEntry();
  const pending = add.isPending || update.isPending;

  const submit = () => {
    const blank = { key: key.trim() === '', value: value.trim() === '' };
    setMissing(blank);
    if (blank.key || blank.value) return;
    const body = { key: key.trim(), value, description: description.trim() || null };
    const done = {
      onSuccess: () => {
        toast.success(editing ? 'Config entry updated' : 'Config entry added');
        onDone();
      },
      onError: (error: unknown) =>
        toast.error(
          editing ? 'Failed to update config entry' : 'Failed to add config entry',
          serverMessageOf(error),
        ),
    };
    if (editing) update.mutate(body, done);
    else add.mutate(body, done);
  };

  const hint = knownKeyHint(key);
  return (
    <form
      aria-label={editing ? 'Edit config entry' : 'Add config entry'}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        {editing ? (
          <TextInput label="Key" value={key} readOnly description={hint} />
        ) : (
          <Autocomplete
            label="Key"
            placeholder="e.g. links.free_limit"
            withAsterisk
            data={knownKeys}
            value={key}
            onChange={setKey}
            description={hint ?? "1-64 characters: lower-case letters, digits, '_', '.' or '-'"}
            error={missing.key ? 'Key is required' : undefined}
            autoComplete="off"
            spellCheck={false}
          />
        )}
        <Textarea
          label="Value"
          withAsterisk
          autosize
          minRows={1}
          maxRows={8}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={missing.value ? 'Value is required' : undefined}
        />
        <TextInput
          label="Description"
          placeholder="Optional"
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
        <DialogActions onCancel={onDone} type="submit" loading={pending}>
          {editing ? 'Save' : 'Add'}
        </DialogActions>
      </Stack>
    </form>
  );
}

/** Delete asks for confirmation. */
function DeleteConfigEntryDialog({ entry, onClose }: { entry: ConfigEntry | undefined; onClose(): void }) {
  const remove = useDeleteConfigEntry();
  const confirm = () => {
    if (!entry) return;
    remove.mutate(entry.key, {
      onSuccess: () => {
        toast.success('Config entry deleted');
        onClose();
      },
      onError: (error) => toast.error('Failed to delete config entry', serverMessageOf(error)),
    });
  };
  return (
    <Modal opened={entry !== undefined} onClose={onClose} title="Delete Config Entry" centered>
      <Text>
        Are you sure you want to delete{' '}
        <Text span ff="monospace">
          {entry?.key}
        </Text>
        ?{entry && knownKeyHint(entry.key) ? ' The app goes back to its default at once.' : ''}
      </Text>
      <DialogActions onCancel={onClose} mt="lg" color="red" onClick={confirm} loading={remove.isPending}>
        Delete
      </DialogActions>
    </Modal>
  );
}
