import { createLinkBody, updateLinkBody } from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { requireSession } from '../auth/current-session';
import type { SessionStore } from '../auth/sessions';
import { parseBody, parseQuery } from '../http/validate';
import { idempotent } from './idempotency';
import type { LinkService } from './link-service';

export interface LinkRoutesDeps {
  links: LinkService;
  sessions: SessionStore;
  db: Kysely<Database>;
}

type IdParams = { Params: { id: string } };

/** Each parameter once: a repeated one (`?search=a&search=b`) is an array, a 400 rather than a 500. */
const listQuery = z.object({
  search: z.string().optional(),
  limit: z.string().optional(),
  offset: z.string().optional(),
});

/** The links calls of spec section 7; every one needs a session, and another user's link is a 404. */
export async function linkRoutes(app: FastifyInstance, deps: LinkRoutesDeps): Promise<void> {
  const { links, sessions } = deps;

  app.get('/api/links', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    const { search, limit, offset } = parseQuery(listQuery, request.query);
    const list = await links.list(userId, { search, limit: positiveInt(limit), offset: positiveInt(offset) });
    return reply.header('cache-control', 'no-store').send(list);
  });

  app.post('/api/links', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    const body = parseBody(createLinkBody, request.body);
    const key = request.headers['idempotency-key'];
    const answer = await idempotent(deps.db, userId, typeof key === 'string' ? key : undefined, async () => ({
      status: 201,
      body: await links.create(userId, body),
    }));
    return reply.code(answer.status).send(answer.body);
  });

  app.patch<IdParams>('/api/links/:id', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    const body = parseBody(updateLinkBody, request.body);
    return reply.send(await links.update(userId, request.params.id, body));
  });

  app.delete<IdParams>('/api/links/:id', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    await links.remove(userId, request.params.id);
    return reply.send({ ok: true, id: request.params.id });
  });

  app.post<IdParams>('/api/links/:id/duplicate', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    return reply.code(201).send(await links.duplicate(userId, request.params.id));
  });

  app.get<{ Params: { code: string } }>('/api/links/check-availability/:code', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    return reply
      .header('cache-control', 'no-store')
      .send(await links.availability(userId, request.params.code));
  });
}

/** A non-negative whole number from the query string, or undefined (a bad one is ignored, not a 500). */
function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
