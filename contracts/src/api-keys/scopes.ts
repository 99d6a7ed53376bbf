import type { analyticsEndpoints } from '../analytics/endpoints';
import type { linkEndpoints } from '../links/endpoints';

/** What a key may do: read links, change them, read their analytics. */
export const apiKeyScopes = ['links:read', 'links:write', 'analytics:read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

type KeyableEndpoint = keyof typeof linkEndpoints | keyof typeof analyticsEndpoints;

/**
 * Every endpoint an API key may call, by name (its operationId), with the scope it needs: the whole surface
 * a key reaches, in one place. A signed-in endpoint not named here answers 401 to a bearer call, so one
 * added later is closed to keys until it is listed.
 */
export const apiKeyScopesByEndpoint: { readonly [Name in KeyableEndpoint]?: ApiKeyScope } = {
  listLinks: 'links:read',
  linkTags: 'links:read',
  checkAvailability: 'links:read',
  linkHistory: 'links:read',
  createLink: 'links:write',
  updateLink: 'links:write',
  deleteLink: 'links:write',
  duplicateLink: 'links:write',
  linkAnalytics: 'analytics:read',
  userAnalytics: 'analytics:read',
  exportAnalytics: 'analytics:read',
};

/** The scope with which a key may call the operation, or undefined when no key may. */
export const apiKeyScopeOf = (operationId: string): ApiKeyScope | undefined =>
  (apiKeyScopesByEndpoint as Record<string, ApiKeyScope | undefined>)[operationId];
