import { Badge, Group } from '@mantine/core';
import type { ApiKey } from '@sniplink/contracts';
import { readableDate, relativeDay } from '../components/dates';

/** A key's scopes as small badges, in the words of the API (`links:read`). */
export function ApiKeyScopes({ scopes }: { scopes: ApiKey['scopes'] }) {
  return (
    <Group gap={4}>
      {scopes.map((scope) => (
        <Badge key={scope} variant="light" color="gray" tt="none" size="sm">
          {scope}
        </Badge>
      ))}
    </Group>
  );
}

/** "Never" until its first call, then the day of its latest (recorded at most once a minute). */
export const keyLastUsedText = (key: Pick<ApiKey, 'lastUsedAt'>, now = new Date()): string =>
  key.lastUsedAt ? relativeDay(key.lastUsedAt, now) : 'Never';

/** "Never", the day it stops working, or "Expired" once past it. */
export function keyExpiryText(key: Pick<ApiKey, 'expiresAt'>, now = new Date()): string {
  if (!key.expiresAt) return 'Never';
  if (new Date(key.expiresAt) <= now) return 'Expired';
  return readableDate(key.expiresAt, { now, month: 'short' });
}
