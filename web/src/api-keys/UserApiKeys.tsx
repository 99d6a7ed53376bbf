import { ActionIcon, Code, Modal, Table, Text, Tooltip } from '@mantine/core';
import type { ApiKey } from '@sniplink/contracts';
import { IconTrash } from '@tabler/icons-react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogActions } from '../components/DialogActions';
import { readableDate } from '../components/dates';
import { ListTable } from '../components/ListTable';
import { toast } from '../components/toast';
import { adminUserApiKeysQueryOptions, useAdminRevokeApiKey } from './api';
import { ApiKeyScopes, keyExpiryText, keyLastUsedText } from './keyFacts';

/** The console's view of a user's API keys (never their secrets), each revocable. */
export function UserApiKeys({ userId }: { userId: string }) {
  const keys = useSuspenseQuery(adminUserApiKeysQueryOptions(userId)).data;
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  if (keys.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No API keys.
      </Text>
    );
  }
  return (
    <>
      <ListTable
        minWidth={560}
        verticalSpacing="xs"
        headings={['Name', 'Scopes', 'Key', 'Created', 'Last used', 'Expires', { hidden: 'Actions' }]}
      >
        {keys.map((key) => (
          <Table.Tr key={key.id}>
            <Table.Td>{key.name}</Table.Td>
            <Table.Td>
              <ApiKeyScopes scopes={key.scopes} />
            </Table.Td>
            <Table.Td>
              <Code>{key.hint}</Code>
            </Table.Td>
            <Table.Td>{readableDate(key.createdAt, { month: 'short' })}</Table.Td>
            <Table.Td>{keyLastUsedText(key)}</Table.Td>
            <Table.Td>{keyExpiryText(key)}</Table.Td>
            <Table.Td>
              <Tooltip label="Revoke">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Revoke ${key.name}`}
                  onClick={() => setRevoking(key)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      <RevokeUserKeyDialog userId={userId} apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

function RevokeUserKeyDialog({
  userId,
  apiKey,
  onClose,
}: {
  userId: string;
  apiKey: ApiKey | null;
  onClose: () => void;
}) {
  const revoke = useAdminRevokeApiKey(userId);
  const confirm = () => {
    if (!apiKey) return;
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        toast.success('API key revoked', 'Its next call is refused.');
        onClose();
      },
      onError: () => toast.error('Not revoked', 'The key could not be revoked. Please try again.'),
    });
  };
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title="Revoke API key" centered>
      <Text>
        Revoke the user's key <strong>{apiKey?.name}</strong>? Whatever uses it is refused from its next call.
        The audit history records it as yours.
      </Text>
      <DialogActions onCancel={onClose} mt="lg" color="red" loading={revoke.isPending} onClick={confirm}>
        Revoke key
      </DialogActions>
    </Modal>
  );
}
