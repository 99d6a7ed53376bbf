import { analyticsEndpoints, type LinkAnalytics } from '@sniplink/contracts';
import type { Clock } from '@sniplink/platform';
import type { ClicksWindow, WindowClicks } from '@sniplink/projections';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes, text } from '../http/route-schema';
import type { LinkService } from '../links/link-service';
import { toCsv } from './csv';
import { periodAnswer, resolvePeriod } from './period';

export interface AnalyticsRoutesDeps {
  links: LinkService;
  sessions: SessionStore;
  analytics: {
    linkAnalytics(linkId: string): Promise<Omit<LinkAnalytics, 'period'>>;
    linkClicksIn(linkId: string, window: ClicksWindow): Promise<WindowClicks>;
    userClickTotal(ownerId: string): Promise<number>;
  };
  /** Today, for a link's ranges; the export's file is named after the day it was made. */
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
      // A range that cannot be is refused before the link is looked up.
      const period = resolvePeriod(request.query, deps.clock.now());
      const link = await links.ownLink(userId, request.params.id);
      const [allTime, counted] = await Promise.all([
        analytics.linkAnalytics(link.link_id),
        analytics.linkClicksIn(link.link_id, period),
      ]);
      return reply
        .header('cache-control', 'no-store')
        .send({ ...allTime, period: periodAnswer(period, counted) });
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
  description:
    'The breakdowns over all time and the last 30 UTC days, and in `period` the range asked for: its clicks per hour (24h) or per day of the time zone, its breakdowns, and the total of the range of the same length before it.',
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
