import { apiKeyAdminEndpoints, apiKeyEndpoints, MAX_API_KEYS } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import { ADMIN } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { ApiKeyService } from './api-key-service';

/** Managed with a session only: a key never makes, lists or ends keys (no `apiKey` declared here). */
const route = featureRoutes(apiKeyEndpoints, { tag: 'API keys', session: 'required' });
const SECRET_NEVER_SHOWN = 'The secret is never shown again: each key carries a hint to recognise it by.';

/** The signed-in user's API keys (Profile, "API keys"). */
export async function apiKeyRoutes(app: FastifyInstance, { apiKeys }: { apiKeys: ApiKeyService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...route('listApiKeys', {
      summary: "The signed-in user's API keys, newest first",
      description: `Revoked keys are gone from the list; expired ones stay until revoked. ${SECRET_NEVER_SHOWN}`,
      answers: { 200: 'The keys' },
    }),
    handler: async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await apiKeys.list(sessionOf(request).userId)),
  });

  api.route({
    ...route('createApiKey', {
      summary: 'Create an API key',
      description: `A name (1-60 characters), at least one scope of \`links:read\`, \`links:write\`, \`analytics:read\`, and optionally \`expiresAt\`, in the future. The answer holds the key (\`secret\`, \`sk_live_…\`) this once: only its hash is stored. At most ${MAX_API_KEYS} keys an account (409 past it).`,
      rateLimit: { requests: 10, minutes: 1 },
      answers: { 201: 'The key, with its secret' },
      errors: { 409: ['CONFLICT'] },
    }),
    handler: async (request, reply) => {
      const created = await apiKeys.create(sessionOf(request).userId, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  });

  api.route({
    ...route('revokeApiKey', {
      summary: 'Revoke an API key',
      description: "Its next call is refused (401) by every process. Another user's key is not found.",
      answers: { 200: 'Revoked' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      await apiKeys.revoke(sessionOf(request).userId, request.params.id, 'owner');
      return { ok: true as const, id: request.params.id };
    },
  });
}

/** The console's view of a user's keys, and revoking one (audited as the admin's). */
export async function apiKeyAdminRoutes(admin: FastifyInstance, { apiKeys }: { apiKeys: ApiKeyService }) {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const adminRoute = featureRoutes(apiKeyAdminEndpoints, ADMIN);

  api.route({
    ...adminRoute('adminUserApiKeys', {
      summary: "A user's API keys",
      description: SECRET_NEVER_SHOWN,
      answers: { 200: 'The keys, newest first' },
    }),
    handler: async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await apiKeys.list(request.params.id)),
  });

  api.route({
    ...adminRoute('adminRevokeApiKey', {
      summary: "Revoke a user's API key",
      description: 'Its next call is refused (401). The audit history lists it as the admin’s.',
      answers: { 200: 'Revoked' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      await apiKeys.revoke(request.params.id, request.params.keyId, 'admin');
      return { ok: true as const, id: request.params.keyId };
    },
  });
}
