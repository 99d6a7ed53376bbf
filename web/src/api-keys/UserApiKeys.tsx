import { Modal, Text } from '@mantine/core';
import type { ApiKey } from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { ApiKeysTable } from './ApiKeysTable';
import { adminUserApiKeysQueryOptions, useAdminRevokeApiKey } from './api';

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
      <ApiKeysTable keys={keys} minWidth={560} onRevoke={setRevoking} />
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
