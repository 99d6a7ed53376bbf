import {
  FREE_LINK_LIMIT,
  linkAllowanceText,
  linkEndpoints,
  PRO_MONTHLY_LINK_LIMIT,
} from '@sniplink/contracts';
import type { Database } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes } from '../http/route-schema';
import { linkLimitsOf, type Settings } from '../shared/settings';
import { idempotent } from './idempotency';
import type { LinkService } from './link-service';

export interface LinkRoutesDeps {
  links: LinkService;
  settings: Settings;
  sessions: SessionStore;
  db: Kysely<Database>;
}

const PLAN_LIMITS = ['SUBSCRIPTION_REQUIRED', 'MONTHLY_LIMIT_REACHED'] as const;
/** A custom code the admin's lists refuse is a 400 too (`PROHIBITED_CODE`, `PROTECTED_BRAND`): docs/moderation.md. */
const BAD_LINK = ['INVALID_URL', 'INVALID_SHORT_CODE', 'PROHIBITED_CODE', 'PROTECTED_BRAND'] as const;
const route = featureRoutes(linkEndpoints, { tag: 'Links', session: 'required' });

const idempotencyKey = z.looseObject({
  'idempotency-key': z
    .string()
    .min(1, 'must be 1-200 characters')
    .max(200, 'must be 1-200 characters')
    .optional()
    .describe('A repeated create with the same key gets the first answer'),
});

/** The links calls; every one needs a session, and another user's link is a 404. */
export async function linkRoutes(app: FastifyInstance, deps: LinkRoutesDeps): Promise<void> {
  const { links } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...route('listLinks', {
      summary: "The user's links, newest first",
      answers: { 200: 'The links' },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      const { search, tag, limit, offset } = request.query;
      const list = await links.list(userId, {
        search,
        tag,
        limit: positiveInt(limit),
        offset: positiveInt(offset),
      });
      return reply.header('cache-control', 'no-store').send(list);
    },
  });

  api.route({
    ...route('linkTags', {
      summary: "The tags on the user's links, each with how many links carry it",
      answers: { 200: 'The tags, the most used first' },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      return reply.header('cache-control', 'no-store').send(await links.tags(userId));
    },
  });

  api.route({
    ...route('createLink', {
      summary: 'Shorten a URL',
      description: `Controls (password, expiresAt, maxClicks, fallbackUrl, paused, tags, rules) are optional; an admin may keep any for Pro (403 SUBSCRIPTION_REQUIRED to a Free account). Free accounts hold ${linkAllowanceText('lifetime', FREE_LINK_LIMIT)}; Pro creates ${linkAllowanceText('month', PRO_MONTHLY_LINK_LIMIT)} (the defaults: GET /api/links/limits gives the limits in force).`,
      headers: idempotencyKey,
      answers: { 201: 'The link' },
      errors: { 400: BAD_LINK, 403: PLAN_LIMITS, 409: ['SHORT_CODE_TAKEN', 'CONFLICT'] },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      const key = request.headers['idempotency-key'];
      const answer = await idempotent(deps.db, userId, key, async () => ({
        status: 201,
        body: await links.create(userId, request.body),
      }));
      return reply.code(answer.status).send(answer.body);
    },
  });

  api.route({
    ...route('updateLink', {
      summary: "Change title, target, code or the link's controls",
      description:
        'An absent field is unchanged; a null or blank title clears it, as null clears a control. A change to a new code counts against CODE_CHANGES_PER_DAY (429 past it, with Retry-After). A control an admin keeps for Pro is a 403 SUBSCRIPTION_REQUIRED to a Free account (clearing one never is).',
      answers: { 200: 'The link' },
      errors: {
        400: BAD_LINK,
        403: ['SUBSCRIPTION_REQUIRED'],
        404: ['NOT_FOUND'],
        409: ['SHORT_CODE_TAKEN'],
        429: ['RATE_LIMITED'],
      },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      return reply.send(await links.update(userId, request.params.id, request.body));
    },
  });

  api.route({
    ...route('deleteLink', {
      summary: 'Delete a link',
      answers: { 200: 'Deleted' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      await links.remove(userId, request.params.id);
      return reply.send({ ok: true, id: request.params.id });
    },
  });

  api.route({
    ...route('duplicateLink', {
      summary: 'A new link to the same target, with a new code',
      answers: { 201: 'The new link' },
      errors: { 403: PLAN_LIMITS, 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      return reply.code(201).send(await links.duplicate(userId, request.params.id));
    },
  });

  api.route({
    ...route('linkHistory', {
      summary: "The link's changes, newest first",
      description:
        'Creation, target, code, title and every control change, each with its time, who made it (`owner`, `api-key`, `support` for an admin, `operator` for a command-line tool or an import, `system`) and a short summary. Never a password, never who the admin was.',
      answers: { 200: 'The changes' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      return reply.header('cache-control', 'no-store').send(await links.history(userId, request.params.id));
    },
  });

  api.route({
    ...route('linkLimits', {
      summary: 'The link allowances in force',
      description:
        'Open to anyone; an admin may change them (`links.free_limit`, `links.pro_monthly_limit`).',
      session: undefined,
      answers: { 200: 'Links a Free account may hold, links a Pro account may create a month' },
    }),
    handler: async (_request, reply) =>
      reply.header('cache-control', 'no-store').send(linkLimitsOf(deps.settings)),
  });

  api.route({
    ...route('checkAvailability', {
      summary: 'Whether the user may put a link on this code',
      answers: { 200: 'The answer, with a message' },
    }),
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      return reply
        .header('cache-control', 'no-store')
        .send(await links.availability(userId, request.params.code));
    },
  });
}

/** A non-negative whole number from the query string, or undefined (a bad one is ignored, not a 500). */
function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
