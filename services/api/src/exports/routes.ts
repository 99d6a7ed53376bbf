import { EXPORT_VALID_HOURS, exportEndpoints } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import { featureRoutes, text } from '../http/route-schema';
import type { ExportService } from './export-service';

const route = featureRoutes(exportEndpoints, { tag: 'Your data', session: 'required' });

const CONTENTS =
  'The ZIP holds the profile, the links with their tags and controls (a password only as `hasPassword`), the human clicks per link per UTC day, and the support tickets with their messages, each as JSON and CSV.';

/** "Download my data" (Profile): start the export, follow its progress, download the ZIP. */
export async function exportRoutes(app: FastifyInstance, { exports }: { exports: ExportService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // A build under way finishes (or fails) before the database it writes to closes.
  app.addHook('onClose', () => exports.settled());

  api.route({
    ...route('latestExport', {
      summary: "The signed-in user's latest data export",
      description: `\`building\` with its steps done of \`total\`, \`ready\` with \`downloadUrl\` until \`expiresAt\` (${EXPORT_VALID_HOURS} hours after it was built), or \`failed\`; null when there is none or it expired.`,
      answers: { 200: 'The latest export, or null' },
    }),
    handler: async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send({ export: await exports.latest(sessionOf(request).userId) }),
  });

  api.route({
    ...route('startExport', {
      summary: 'Start a data export',
      description: `Built in the background: follow it with the latest export. An export still building is the answer instead of a new one; a new one replaces the previous file. ${CONTENTS}`,
      rateLimit: { requests: 5, minutes: 10 },
      answers: { 202: 'The export, building' },
    }),
    handler: async (request, reply) => reply.code(202).send(await exports.start(sessionOf(request).userId)),
  });

  api.route({
    ...route('downloadExport', {
      summary: 'Download a data export (a ZIP)',
      description: `Only its owner, only for ${EXPORT_VALID_HOURS} hours after it was built: another user's export, or one past its time, is not found. ${CONTENTS}`,
      answers: {
        200: {
          ...text('The ZIP', 'application/zip'),
          headers: { 'Content-Disposition': 'attachment; filename="sniplink-data-{date}.zip"' },
        },
      },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) => {
      const { zip, size, createdAt } = await exports.download(sessionOf(request).userId, request.params.id);
      const date = createdAt.toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="sniplink-data-${date}.zip"`)
        .header('cache-control', 'no-store')
        .send(zip);
    },
  });
}
