import { announcementAdminEndpoints, announcementEndpoints } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { featureRoutes } from '../http/route-schema';
import type { AnnouncementService } from './announcement-service';
import { ADMIN } from './routes';

/**
 * The console's Announce tab: the list, publishing, switching one
 * off or on again. Registered under `/api/admin`, behind its gate.
 */
export async function announcementAdminRoutes(
  admin: FastifyInstance,
  { announcements }: { announcements: AnnouncementService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const adminRoute = featureRoutes(announcementAdminEndpoints, ADMIN);

  api.route({
    ...adminRoute('listAnnouncements', {
      summary: 'Every announcement, newest first',
      answers: { 200: 'The announcements' },
    }),
    handler: () => announcements.list(),
  });

  api.route({
    ...adminRoute('publishAnnouncement', {
      summary: 'Publish an announcement',
      description:
        'Title (at most 120 characters) and message (at most 2,000) are required and not blank; `type` defaults to `info`, `targetAudience` to `all`, `isActive` to true. Users see the message as text, never as HTML.',
      answers: { 201: 'The announcement as published' },
    }),
    handler: async (request, reply) => {
      reply.code(201);
      return announcements.publish(request.body);
    },
  });

  api.route({
    ...adminRoute('toggleAnnouncement', {
      summary: 'Switch an announcement off, or on again',
      description:
        'Switched off, it is shown to no one (and stays in the list); asking for its current state changes nothing.',
      answers: { 200: 'The announcement as it stands now' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => announcements.setActive(request.params.id, request.body.isActive),
  });
}

/** The signed-in user's side: the banners on the dashboard, and closing one for good. */
export async function announcementRoutes(
  app: FastifyInstance,
  { announcements }: { announcements: AnnouncementService; sessions: SessionStore },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(announcementEndpoints, { tag: 'Announcements', session: 'required' });

  api.route({
    ...route('activeAnnouncements', {
      summary: "The announcements for the signed-in user's audience",
      description:
        'Active ones only, newest first: `all` to everyone, `free` to users who are not Pro, `paid` to Pro users, `admin` to admins; minus those the user dismissed.',
      answers: { 200: 'The announcements to show' },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      return announcements.shownTo(userId);
    },
  });

  api.route({
    ...route('dismissAnnouncement', {
      summary: 'Dismiss an announcement for good',
      description: 'Dismissing it again changes nothing; one not addressed to the user is not found.',
      answers: { 200: 'Dismissed' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      const { userId } = sessionOf(request);
      await announcements.dismiss(userId, request.params.id);
      return { id: request.params.id, dismissed: true as const };
    },
  });
}
