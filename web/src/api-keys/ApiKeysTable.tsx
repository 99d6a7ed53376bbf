import { ActionIcon, Code, Table, Tooltip } from '@mantine/core';
import type { ApiKey } from '@sniplink/contracts';
import { IconTrash } from '@tabler/icons-react';
import { readableDate } from '../components/dates';
import { ListTable } from '../components/ListTable';
import { ApiKeyScopes, keyExpiryText, keyLastUsedText } from './keyFacts';

/** A list of API keys as their owner and an admin see it (never the secret), each with a Revoke button. */
export function ApiKeysTable({
  keys,
  minWidth,
  onRevoke,
}: {
  keys: readonly ApiKey[];
  minWidth: number;
  onRevoke(key: ApiKey): void;
}) {
  return (
    <ListTable
      minWidth={minWidth}
      verticalSpacing="xs"
      headings={['Name', 'Scopes', 'Key', 'Created', 'Last used', 'Expires', { hidden: 'Actions' }]}
    >
      {keys.map((key) => (
        <Table.Tr key={key.id}>
          <Table.Td fw={500}>{key.name}</Table.Td>
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
                onClick={() => onRevoke(key)}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
