import {
  type ConfigEntry,
  type CreateConfigEntryBody,
  configAdminEndpoints,
  expectedValue,
  settingOfKey,
} from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { ApiError } from '../api/http';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const { listConfig, listKnownSettings, addConfig, updateConfig, deleteConfig } = configAdminEndpoints;

/** Query key: the GET URL. */
export const configEntriesQueryKey = [listConfig.path] as const;

/** Every config entry, by key. Admin queries never retry. */
export const configEntriesQueryOptions = () =>
  queryOptions({
    queryKey: configEntriesQueryKey,
    queryFn: ({ signal }) => call(listConfig, {}, { signal }),
    retry: false,
  });

const knownSettingsQueryKey = [listKnownSettings.path] as const;

/** Every key the app reads, set or not, with the value in force and its default. */
export const knownSettingsQueryOptions = () =>
  queryOptions({
    queryKey: knownSettingsQueryKey,
    queryFn: ({ signal }) => call(listKnownSettings, {}, { signal }),
    retry: false,
  });

/** After any change: the list again (lists are refreshed after successful changes). */
const useConfigMutation = <Variables, Result>(mutationFn: (variables: Variables) => Promise<Result>) =>
  useRefreshingMutation(mutationFn, [configEntriesQueryKey, knownSettingsQueryKey]);

export const useAddConfigEntry = () =>
  useConfigMutation((body: CreateConfigEntryBody) => call(addConfig, { body }));

/** PUT with the key of the entry: the key itself cannot change. */
export const useUpdateConfigEntry = () =>
  useConfigMutation(({ key, value, description }: Pick<ConfigEntry, 'key' | 'value' | 'description'>) =>
    call(updateConfig, { params: { key }, body: { key, value, description } }),
  );

export const useDeleteConfigEntry = () =>
  useConfigMutation((key: string) => call(deleteConfig, { params: { key } }));

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
