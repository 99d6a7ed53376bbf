import { z } from 'zod';
import { endpoint } from '../endpoint';
import { apiKeySchema, createApiKeyBody, createdApiKeySchema, revokedApiKeySchema } from './api';

/** The signed-in user's API keys (Profile): managed with a session only, never with a key. */
export const apiKeyEndpoints = {
  listApiKeys: endpoint('GET /api/api-keys', { 200: z.array(apiKeySchema) }),
  createApiKey: endpoint('POST /api/api-keys', { 201: createdApiKeySchema }, { body: createApiKeyBody }),
  revokeApiKey: endpoint('DELETE /api/api-keys/:id', { 200: revokedApiKeySchema }),
};

/** A user's keys in the console's user view, behind the admin gate. */
export const apiKeyAdminEndpoints = {
  adminUserApiKeys: endpoint('GET /api/admin/users/:id/api-keys', { 200: z.array(apiKeySchema) }),
  adminRevokeApiKey: endpoint('DELETE /api/admin/users/:id/api-keys/:keyId', { 200: revokedApiKeySchema }),
};
