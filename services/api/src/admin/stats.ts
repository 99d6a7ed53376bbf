import {
  type AdminDetailedStats,
  type AdminStats,
  type AdminTrends,
  statsAdminEndpoints,
} from '@sniplink/contracts';
import type { Clock } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { featureRoutes } from '../http/route-schema';
import { ADMIN } from './routes';

export interface StatsAdminRoutesDeps {
  /** The read models' figures at an instant (projections' `adminStatsSummary`, `adminDetailedStats`). */
  stats: {
    summary(now: Date): Promise<AdminStats>;
    detailed(now: Date): Promise<AdminDetailedStats>;
    trends(now: Date): Promise<AdminTrends>;
  };
  clock: Clock;
}

/**
 * The console's Overview: its figures come from read models the
 * projections and the click consumer keep current, so a call reads a few rows, however large the site.
 */
export async function statsAdminRoutes(admin: FastifyInstance, { stats, clock }: StatsAdminRoutesDeps) {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(statsAdminEndpoints, ADMIN);

  api.route({
    ...route('platformStats', {
      summary: 'Platform figures: accounts, subscriptions, links, clicks',
      answers: { 200: 'The Overview’s headline figures, as the read models hold them now' },
    }),
    handler: async (_request, reply) =>
      reply.header('cache-control', 'no-store').send(await stats.summary(clock.now())),
  });

  api.route({
    ...route('overviewStats', {
      summary: 'Every figure of the Overview',
      description:
        'The headline figures, today’s and this month’s activity (from midnight and the first of the month in the ' +
        'TIME_ZONE setting, UTC by default), free and paid accounts, and the monthly revenue in cents.',
      answers: { 200: 'The detailed statistics' },
    }),
    handler: async (_request, reply) =>
      reply.header('cache-control', 'no-store').send(await stats.detailed(clock.now())),
  });

  api.route({
    ...route('overviewTrends', {
      summary: 'The Overview’s charts: the last 30 days',
      description:
        'Sign-ups, links created, human clicks and revenue (cents) a day, for the last 30 days in the TIME_ZONE ' +
        'setting, today included, oldest first: read from the same quarter-hour read models as the figures.',
      answers: { 200: 'The trends' },
    }),
    handler: async (_request, reply) =>
      reply.header('cache-control', 'no-store').send(await stats.trends(clock.now())),
  });
}
