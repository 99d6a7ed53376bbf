import { demoEndpoints } from '@sniplink/contracts';
import { identifyActor } from '@sniplink/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type CookieSettings, currentSession } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes, json } from '../http/route-schema';
import type { DemoService } from './demo-service';
import { readVisitorId, visitorIdFor, visitorOwnerId } from './visitor';

export interface DemoRoutesDeps {
  demo: DemoService;
  sessions: SessionStore;
  cookie: CookieSettings;
}

/**
 * The landing page's demo: open to visitors, who are told apart by a cookie of
 * their own; a signed-in caller (onboarding) gets a real link instead. Every call counts against the
 * address's per-minute limit first, so a flood costs one counter update per request.
 */
export async function demoRoutes(app: FastifyInstance, deps: DemoRoutesDeps): Promise<void> {
  const { demo, sessions, cookie } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Counted before the body is validated: a flood of bad bodies is limited too.
  const counted = async (request: FastifyRequest) => demo.countRequest(request.ip);

  // 201: a link was created, as POST /api/links answers.
  api.route({
    ...SHORTEN,
    preValidation: counted,
    handler: async (request, reply) => {
      const { url } = request.body;
      const session = await currentSession(request, sessions);
      const link = session
        ? await demo.shortenForUser(session.userId, url)
        : await shortenAsVisitor(demo, visitorIdFor(request, reply, cookie), url, request.ip);
      return reply.code(201).send(link);
    },
  });

  api.route({
    ...LIST,
    preValidation: counted,
    handler: async (request, reply) => {
      const session = await currentSession(request, sessions);
      const visitorId = readVisitorId(request);
      const links = session
        ? await demo.listForUser(session.userId)
        : visitorId
          ? await demo.listForVisitor(visitorId)
          : [];
      return reply.header('cache-control', 'no-store').send(links);
    },
  });
}

const PLAN_LIMITS = ['SUBSCRIPTION_REQUIRED', 'MONTHLY_LIMIT_REACHED'] as const;

const route = featureRoutes(demoEndpoints, { tag: 'Demo', session: 'optional' });

const SHORTEN = route('demoShorten', {
  summary: 'Shorten a URL without an account (the landing page demo)',
  description:
    "A visitor's link lasts 7 days unless signing up claims it; a signed-in caller gets a real link.",
  answers: {
    201: json('The demo link', demoEndpoints.demoShorten.answers[201], {
      'Set-Cookie': "`visitor`, which tells this browser's demo links apart",
    }),
  },
  errors: { 400: ['INVALID_URL'], 403: PLAN_LIMITS, 429: ['RATE_LIMITED'] },
});

const LIST = route('demoLinks', {
  summary: "This browser's (or the user's) demo links, newest first",
  answers: { 200: 'The demo links' },
  errors: { 429: ['RATE_LIMITED'] },
});

/** A visitor's demo link: the visitor (`visitor-{id}`, the link's owner) is the actor of its events. */
function shortenAsVisitor(demo: DemoService, visitorId: string, url: string, ip: string) {
  identifyActor(visitorOwnerId(visitorId));
  return demo.shortenAsVisitor(visitorId, url, ip);
}

/**
 * The auth routes' `afterSignIn`: a browser that made demo links as a visitor brings them into the
 * account it signs up or in with. A failed claim never fails the sign-in: the links simply stay the
 * visitor's, and the next sign-in tries again.
 */
export function claimDemoLinksOnSignIn(demo: DemoService) {
  return async (request: FastifyRequest, _reply: FastifyReply, userId: string): Promise<void> => {
    const visitorId = readVisitorId(request);
    if (!visitorId) return;
    try {
      await demo.claim(visitorId, userId);
    } catch (err) {
      request.log.warn({ err }, 'claiming demo links failed; they stay with the visitor');
    }
  };
}
