import { AUDIT_PAGE_SIZE, type AuditActor, type AuditEntry, auditAdminEndpoints } from '@sniplink/contracts';
import type { AuditFilter, AuditRecord } from '@sniplink/projections';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { featureRoutes } from '../http/route-schema';
import { ADMIN } from './routes';

export interface AuditAdminRoutesDeps {
  /** A page of the audit read model (projections' `auditHistory` on the app's database). */
  auditHistory(filter: AuditFilter): Promise<{ records: AuditRecord[]; hasMore: boolean }>;
}

/**
 * The audit history: what admins did in the console and operators did from the command line,
 * newest first, filtered by acting admin and by target. Every event appended while the console's gate or
 * an operator's tool was the way in is an entry (see projections/src/admin/audit/).
 */
export async function auditAdminRoutes(admin: FastifyInstance, deps: AuditAdminRoutesDeps) {
  const route = featureRoutes(auditAdminEndpoints, ADMIN);
  admin.withTypeProvider<ZodTypeProvider>().route({
    ...route('auditHistory', {
      summary: 'The history of admin and operator actions',
      description:
        'Every change made through the admin console or an operator command, newest first. `target` takes a stream id (`user-{id}`) or the id alone. Entries never carry personal data or secrets.',
      answers: { 200: 'One page of the history' },
    }),
    handler: async (request) => {
      const { actor, target } = request.query;
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.pageSize ?? AUDIT_PAGE_SIZE);
      const { records, hasMore } = await deps.auditHistory({
        // User ids are stored in lower case, as PostgreSQL writes a uuid.
        actor: actor?.toLowerCase(),
        target,
        page,
        pageSize,
      });
      return { entries: records.map(toAuditEntry), page, pageSize, hasMore };
    },
  });
}

function toAuditEntry(record: AuditRecord): AuditEntry {
  return {
    id: record.eventId,
    occurredAt: record.occurredAt.toISOString(),
    action: record.action,
    actor: {
      id: record.actor.id,
      email: record.actor.email,
      kind: kindOf(record.actor),
      erased: record.actor.erased,
    },
    target: { type: record.target.type, id: record.target.id, streamId: record.target.streamId },
    details: record.details,
  };
}

function kindOf(actor: AuditRecord['actor']): AuditActor['kind'] {
  if (actor.channel === 'operator' || actor.id === 'operator') return 'operator';
  return actor.id === 'system' ? 'system' : 'admin';
}
