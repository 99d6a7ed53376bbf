import { configAdminEndpoints, isConfigKey } from '@sniplink/contracts';
import { NotFoundError, ValidationError } from '@sniplink/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { featureRoutes } from '../http/route-schema';
import type { ConfigService } from './config-service';
import { ADMIN } from './routes';

export interface ConfigAdminRoutesDeps {
  config: ConfigService;
}

const KNOWN_KEYS =
  'Known keys (docs/configuration.md) take a whole number within their range and apply at once in every process; other keys are kept as text.';

/** A key in the path that is not a well-formed key names no entry: 404, as an unknown one. */
function entryKey(key: string): string {
  if (!isConfigKey(key)) throw new NotFoundError('No such config entry');
  return key;
}

/** The console's Config tab: config entries, listed and changed. */
export async function configAdminRoutes(admin: FastifyInstance, { config }: ConfigAdminRoutesDeps) {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(configAdminEndpoints, ADMIN);

  api.route({
    ...route('listConfig', {
      summary: 'List the config entries',
      answers: { 200: 'Every config entry, by key' },
    }),
    handler: () => config.list(),
  });

  api.route({
    ...route('listKnownSettings', {
      summary: 'The keys the app reads, set or not',
      description: 'Each with its label, the value in force, its default and whether an entry sets it.',
      answers: { 200: 'Every known setting' },
    }),
    handler: () => config.knownSettings(),
  });

  api.route({
    ...route('addConfig', {
      summary: 'Add a config entry',
      description: `Key and value are required. ${KNOWN_KEYS}`,
      answers: { 201: 'The entry as stored' },
      errors: { 409: ['CONFLICT'] },
    }),
    handler: async (request, reply) => {
      const { key, value, description } = request.body;
      reply.code(201);
      return config.create(key, value, description);
    },
  });

  api.route({
    ...route('updateConfig', {
      summary: 'Change a config entry',
      description: `The key cannot change: a body \`key\` must be the one in the path. ${KNOWN_KEYS}`,
      answers: { 200: 'The entry as stored' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const key = entryKey(request.params.key);
      const { key: bodyKey, value, description } = request.body;
      if (bodyKey !== undefined && bodyKey !== key)
        throw new ValidationError('key cannot change: it must be the key in the address', 'key');
      return config.update(key, value, description);
    },
  });

  api.route({
    ...route('deleteConfig', {
      summary: 'Delete a config entry',
      description: 'A known key is back at its default at once.',
      answers: { 200: 'Deleted' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const key = entryKey(request.params.key);
      await config.remove(key);
      return { ok: true as const, key };
    },
  });
}
