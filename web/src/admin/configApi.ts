import {
  type ConfigEntry,
  type CreateConfigEntryBody,
  configEntryListSchema,
  configEntrySchema,
  deletedConfigEntrySchema,
  expectedValue,
  settingOfKey,
} from '@sniplink/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, getJson, sendJson } from '../api/http';

/** Query key: the GET URL. */
export const configEntriesQueryKey = ['/api/admin/config'] as const;

/** Every config entry, by key. Admin queries never retry. */
export const configEntriesQueryOptions = () =>
  queryOptions({
    queryKey: configEntriesQueryKey,
    queryFn: ({ signal }) => getJson('/api/admin/config', configEntryListSchema, { signal }),
    retry: false,
  });

/** After any change: the list again (lists are refreshed after successful changes). */
function useConfigMutation<Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configEntriesQueryKey }),
  });
}

const entryUrl = (key: string) => `/api/admin/config/${encodeURIComponent(key)}`;

export const useAddConfigEntry = () =>
  useConfigMutation((body: CreateConfigEntryBody) =>
    sendJson('POST', '/api/admin/config', configEntrySchema, body),
  );

/** PUT with the key of the entry: the key itself cannot change. */
export const useUpdateConfigEntry = () =>
  useConfigMutation(({ key, value, description }: Pick<ConfigEntry, 'key' | 'value' | 'description'>) =>
    sendJson('PUT', entryUrl(key), configEntrySchema, { key, value, description }),
  );

export const useDeleteConfigEntry = () =>
  useConfigMutation((key: string) => sendJson('DELETE', entryUrl(key), deletedConfigEntrySchema));

/** The server's own message ("links.free_limit must be a whole number from 0 to 1000000"), else the error's. */
export const serverMessageOf = (error: unknown): string =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';

/** For a key the app reads: what it sets, what it takes and its default; undefined for any other key. */
export function knownKeyHint(key: string): string | undefined {
  const known = settingOfKey(key.trim());
  if (!known) return undefined;
  const { setting } = known;
  const fallback = setting.defaultFrom ? ` (${setting.defaultFrom} when set)` : '';
  return `${setting.label}: ${expectedValue(setting)}; default ${setting.default}${fallback}.`;
}
