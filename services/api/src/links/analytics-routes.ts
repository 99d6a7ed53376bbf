import type { LinkAnalytics } from '@sniplink/contracts';
import type { Clock } from '@sniplink/platform';
import type { FastifyInstance } from 'fastify';
import { requireSession } from '../auth/current-session';
import type { SessionStore } from '../auth/sessions';
import { toCsv } from './csv';
import type { LinkService } from './link-service';

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

/** Click analytics of one link, the account's totals, and the CSV export (spec section 7). */
export async function analyticsRoutes(app: FastifyInstance, deps: AnalyticsRoutesDeps): Promise<void> {
  const { links, sessions, analytics } = deps;

  app.get<{ Params: { id: string } }>('/api/analytics/link/:id', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    const link = await links.ownLink(userId, request.params.id);
    return reply.header('cache-control', 'no-store').send(await analytics.linkAnalytics(link.link_id));
  });

  app.get('/api/analytics/user', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
    const [totalLinks, totalClicks] = await Promise.all([
      links.countOwned(userId),
      analytics.userClickTotal(userId),
    ]);
    return reply.header('cache-control', 'no-store').send({ totalLinks, totalClicks });
  });

  app.get('/api/analytics/export', async (request, reply) => {
    const { userId } = await requireSession(request, sessions);
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
  });
}
