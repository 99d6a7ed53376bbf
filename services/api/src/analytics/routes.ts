import { analyticsEndpoints, type LinkAnalytics } from '@sniplink/contracts';
import type { Clock } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes, text } from '../http/route-schema';
import type { LinkService } from '../links/link-service';
import { toCsv } from './csv';

export interface AnalyticsRoutesDeps {
  links: LinkService;
  sessions: SessionStore;
  analytics: {
    linkAnalytics(linkId: string): Promise<LinkAnalytics>;
    userClickTotal(ownerId: string): Promise<number>;
  };
  /** The export's file is named after the day it was made. */
  clock: Clock;
}

/** Click analytics of one link, the account's totals, and the CSV export. */
export async function analyticsRoutes(app: FastifyInstance, deps: AnalyticsRoutesDeps): Promise<void> {
  const { links, analytics } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...LINK,
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      const link = await links.ownLink(userId, request.params.id);
      return reply.header('cache-control', 'no-store').send(await analytics.linkAnalytics(link.link_id));
    },
  });

  api.route({
    ...TOTALS,
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      const [totalLinks, totalClicks] = await Promise.all([
        links.countOwned(userId),
        analytics.userClickTotal(userId),
      ]);
      return reply.header('cache-control', 'no-store').send({ totalLinks, totalClicks });
    },
  });

  api.route({
    ...EXPORT,
    handler: async (request, reply) => {
      const { userId } = sessionOf(request);
      const rows = await links.list(userId);
      const csv = toCsv(
        ['Short Code', 'Short URL', 'Original URL', 'Title', 'Created', 'Clicks'],
        rows.map((link) => [
          link.shortCode,
          link.shortUrl,
          link.originalUrl,
          link.title ?? '',
          link.createdAt,
          link.clickCount,
        ]),
      );
      const date = deps.clock.now().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sniplink-links-${date}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  });
}

const route = featureRoutes(analyticsEndpoints, { tag: 'Analytics', session: 'required' });

const LINK = route('linkAnalytics', {
  summary: "One link's clicks by device, referrer, country, browser, OS and day",
  answers: { 200: 'The breakdowns' },
  errors: { 404: ['NOT_FOUND'] },
});

const TOTALS = route('userAnalytics', {
  summary: "The user's totals",
  answers: { 200: 'Links and clicks' },
});

const EXPORT = route('exportAnalytics', {
  summary: "The user's links as CSV (a download)",
  answers: {
    200: {
      ...text('Short Code, Short URL, Original URL, Title, Created, Clicks', 'text/csv'),
      headers: { 'Content-Disposition': 'attachment; filename="sniplink-links-{date}.csv"' },
    },
  },
});
