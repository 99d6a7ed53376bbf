import {
  configEntryListSchema,
  configEntrySchema,
  createConfigEntryBody,
  deletedConfigEntrySchema,
  isConfigKey,
  updateConfigEntryBody,
} from '@sniplink/contracts';
import { NotFoundError, ValidationError } from '@sniplink/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { json, operation } from '../http/route-schema';
import type { ConfigService } from './config-service';

export interface ConfigAdminRoutesDeps {
  config: ConfigService;
}

const keyParams = z.object({ key: z.string() });

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

  api.get(
    '/config',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'listConfig',
        summary: 'List the config entries',
        session: 'admin',
        answers: { 200: json('Every config entry, by key', configEntryListSchema) },
      }),
    },
    () => config.list(),
  );

  api.post(
    '/config',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'addConfig',
        summary: 'Add a config entry',
        description: `Key and value are required. ${KNOWN_KEYS}`,
        session: 'admin',
        body: createConfigEntryBody,
        answers: { 201: json('The entry as stored', configEntrySchema) },
        errors: { 409: ['CONFLICT'] },
      }),
    },
    async (request, reply) => {
      const { key, value, description } = request.body;
      reply.code(201);
      return config.create(key, value, description);
    },
  );

  api.put(
    '/config/:key',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'updateConfig',
        summary: 'Change a config entry',
        description: `The key cannot change: a body \`key\` must be the one in the path. ${KNOWN_KEYS}`,
        session: 'admin',
        params: keyParams,
        body: updateConfigEntryBody,
        answers: { 200: json('The entry as stored', configEntrySchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const key = entryKey(request.params.key);
      const { key: bodyKey, value, description } = request.body;
      if (bodyKey !== undefined && bodyKey !== key)
        throw new ValidationError('key cannot change: it must be the key in the address', 'key');
      return config.update(key, value, description);
    },
  );

  api.delete(
    '/config/:key',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'deleteConfig',
        summary: 'Delete a config entry',
        description: 'A known key is back at its default at once.',
        session: 'admin',
        params: keyParams,
        answers: { 200: json('Deleted', deletedConfigEntrySchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const key = entryKey(request.params.key);
      await config.remove(key);
      return { ok: true as const, key };
    },
  );
}
