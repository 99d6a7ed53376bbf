import { apiKeyEvents } from '@sniplink/contracts';
import * as apiKeyTables from '@sniplink/platform/migrations/2026-11-28T14-api-keys';
import { defineFeature } from '../feature';
import { apiKeyAdminRoutes, apiKeyRoutes } from './routes';

/**
 * API keys: a user scripts their links and analytics from a CMS or a shell with `Authorization: Bearer`.
 * The keys' service and store are started with the runtime (every bearer call is checked against the store,
 * and an erasure, from the app or the operator's command, revokes the keys), and reach the feature as a port.
 */
export const apiKeysFeature = defineFeature({
  name: 'api-keys',
  build: ({ apiKeys }) => apiKeys,
  routes: (apiKeys) => [(api) => apiKeyRoutes(api, { apiKeys })],
  adminRoutes: (apiKeys) => [(admin) => apiKeyAdminRoutes(admin, { apiKeys })],
  migrations: { '2026-11-28T14-api-keys': apiKeyTables },
  events: [apiKeyEvents],
});
