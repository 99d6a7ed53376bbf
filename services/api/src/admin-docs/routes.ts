import { adminDocEndpoints } from '@sniplink/contracts/admin-docs/endpoints';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { AdminDocService } from './admin-doc-service';

const FIELDS =
  '`section` is one of config, users, premium, seo, support, moderation; `title` (at most 200 characters) and `content` (markdown, at most 20,000) are required and not blank; `sortOrder` is a whole number from 0 (smallest first), 0 when left out.';

/**
 * The console's Docs tab: internal documentation for admins, listed, written, changed, deleted and
 * seeded. Registered under `/api/admin`, behind its gate (so every change is audited).
 */
export async function adminDocRoutes(
  admin: FastifyInstance,
  { docs }: { docs: AdminDocService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(adminDocEndpoints, ADMIN);

  api.route({
    ...route('listAdminDocs', {
      summary: 'The internal docs, or one section’s',
      description:
        'By `sortOrder`, then title. `lastUpdatedBy` is the e-mail address of the admin who changed the doc last (null once that account is erased).',
      answers: { 200: 'The docs' },
    }),
    handler: (request) => docs.list(request.query.section),
  });

  api.route({
    ...route('addAdminDoc', {
      summary: 'Write a doc',
      description: FIELDS,
      answers: { 201: 'The doc as stored' },
    }),
    handler: async (request, reply) => {
      reply.code(201);
      return docs.create(request.body);
    },
  });

  api.route({
    ...route('updateAdminDoc', {
      summary: 'Change a doc',
      description: `The whole doc, as on create. ${FIELDS}`,
      answers: { 200: 'The doc as stored' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => docs.update(request.params.id, request.body),
  });

  api.route({
    ...route('deleteAdminDoc', {
      summary: 'Delete a doc',
      answers: { 200: 'Deleted' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      await docs.remove(request.params.id);
      return { ok: true as const, id: request.params.id };
    },
  });

  api.route({
    ...route('seedAdminDocs', {
      summary: 'Add the starter docs',
      description:
        'Two or three docs for each section on how that part of the console works. A starter doc added by an earlier seed is skipped, even once deleted: a second seed creates none. `message` says what was done.',
      answers: { 200: 'How many were created and skipped, in words too' },
    }),
    handler: () => docs.seed(),
  });
}
