import { projectionsAdminEndpoints } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { ProjectionsService } from './projections-service';

const PROJECTIONS = { tag: 'Projections' };

/** The console's projection health and rebuilds. Paths are relative to `/api/admin`, behind its gate. */
export async function projectionsAdminRoutes(
  admin: FastifyInstance,
  { projections }: { projections: ProjectionsService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const adminRoute = featureRoutes(projectionsAdminEndpoints, { ...ADMIN, ...PROJECTIONS });

  api.route({
    ...adminRoute('listProjections', {
      summary: "The read models' health",
      description:
        "For each projection: its name and code version (and the version its tables were built by), its position in the event log and the log's head, its lag in events (counted up to 10,000: `lagCapped`) and in seconds (the age of the oldest event not yet applied), its last error and when, its state (running, catching up, rebuilding, failed), the process that runs it (host and process id, null when none does), and its latest rebuild with its pace (events per second) and the time left.",
      answers: { 200: 'Every projection, in the order the app runs them' },
    }),
    handler: async () => ({ projections: await projections.health() }),
  });

  api.route({
    ...adminRoute('rebuildProjection', {
      summary: 'Rebuild a read model without downtime',
      description:
        "Builds the projection's tables again from the start of the log beside the live ones, in the background; the dashboard and the redirects keep reading the live tables, which stay current, until the new copy has caught up and is swapped in (one short transaction). Follow its progress in the list. A 404 names the projections; a 409 says a rebuild of it is running already. Listed in the audit history.",
      answers: { 202: 'The rebuild started' },
      errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'] },
    }),
    handler: async (request, reply) => reply.code(202).send(await projections.rebuild(request.params.name)),
  });
}
