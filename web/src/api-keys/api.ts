import { apiKeyAdminEndpoints, apiKeyEndpoints, type CreateApiKeyBody } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { useRefreshingMutation } from '../api/useRefreshingMutation';

const { listApiKeys, createApiKey, revokeApiKey } = apiKeyEndpoints;
const { adminUserApiKeys, adminRevokeApiKey } = apiKeyAdminEndpoints;
const KEYS = listApiKeys.path;

/** The signed-in user's API keys, newest first (never their secrets). */
export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: [KEYS] as const,
    queryFn: ({ signal }) => call(listApiKeys, {}, { signal }),
  });

/** Makes a key; the answer holds its secret, shown once. The list is asked again. */
export const useCreateApiKey = () =>
  useRefreshingMutation((body: CreateApiKeyBody) => call(createApiKey, { body }), [[KEYS]]);

export const useRevokeApiKey = () =>
  useRefreshingMutation((id: string) => call(revokeApiKey, { params: { id } }), [[KEYS]]);

/** A user's keys in the console's user view. */
export const adminUserApiKeysQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: [adminUserApiKeys.path, userId] as const,
    queryFn: ({ signal }) => call(adminUserApiKeys, { params: { id: userId } }, { signal }),
    staleTime: 0,
  });

export const useAdminRevokeApiKey = (userId: string) =>
  useRefreshingMutation(
    (keyId: string) => call(adminRevokeApiKey, { params: { id: userId, keyId } }),
    [[adminUserApiKeys.path, userId]],
  );
