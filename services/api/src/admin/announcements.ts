import {
  announcementSchema,
  createAnnouncementBody,
  dismissedAnnouncementSchema,
  setAnnouncementActiveBody,
  userAnnouncementSchema,
} from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../accounts/current-session';
import type { SessionStore } from '../accounts/sessions';
import { json, operation } from '../http/route-schema';
import type { AnnouncementService } from './announcement-service';

const announcementIdParams = z.object({ id: z.string() });

/**
 * The console's Announce tab: the list, publishing, switching one
 * off or on again. Paths are relative to `/api/admin`, behind its gate.
 */
export async function announcementAdminRoutes(
  admin: FastifyInstance,
  { announcements }: { announcements: AnnouncementService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/announcements',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'listAnnouncements',
        summary: 'Every announcement, newest first',
        session: 'admin',
        answers: { 200: json('The announcements', z.array(announcementSchema)) },
      }),
    },
    () => announcements.list(),
  );

  api.post(
    '/announcements',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'publishAnnouncement',
        summary: 'Publish an announcement',
        description:
          'Title (at most 120 characters) and message (at most 2,000) are required and not blank; `type` defaults to `info`, `targetAudience` to `all`, `isActive` to true. Users see the message as text, never as HTML.',
        session: 'admin',
        body: createAnnouncementBody,
        answers: { 201: json('The announcement as published', announcementSchema) },
      }),
    },
    async (request, reply) => {
      reply.code(201);
      return announcements.publish(request.body);
    },
  );

  api.patch(
    '/announcements/:id',
    {
      schema: operation({
        tag: 'Admin',
        operationId: 'toggleAnnouncement',
        summary: 'Switch an announcement off, or on again',
        description:
          'Switched off, it is shown to no one (and stays in the list); asking for its current state changes nothing.',
        session: 'admin',
        params: announcementIdParams,
        body: setAnnouncementActiveBody,
        answers: { 200: json('The announcement as it stands now', announcementSchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    (request) => announcements.setActive(request.params.id, request.body.isActive),
  );
}

/** The signed-in user's side: the banners on the dashboard, and closing one for good. */
export async function announcementRoutes(
  app: FastifyInstance,
  { announcements }: { announcements: AnnouncementService; sessions: SessionStore },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/announcements',
    {
      schema: operation({
        tag: 'Announcements',
        operationId: 'activeAnnouncements',
        summary: "The announcements for the signed-in user's audience",
        description:
          'Active ones only, newest first: `all` to everyone, `free` to users who are not Pro, `paid` to Pro users, `admin` to admins; minus those the user dismissed.',
        session: 'required',
        answers: { 200: json('The announcements to show', z.array(userAnnouncementSchema)) },
      }),
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return announcements.shownTo(userId);
    },
  );

  api.post(
    '/api/announcements/:id/dismiss',
    {
      schema: operation({
        tag: 'Announcements',
        operationId: 'dismissAnnouncement',
        summary: 'Dismiss an announcement for good',
        description: 'Dismissing it again changes nothing; one not addressed to the user is not found.',
        session: 'required',
        params: announcementIdParams,
        answers: { 200: json('Dismissed', dismissedAnnouncementSchema) },
        errors: { 404: ['NOT_FOUND'] },
      }),
    },
    async (request) => {
      const { userId } = sessionOf(request);
      await announcements.dismiss(userId, request.params.id);
      return { id: request.params.id, dismissed: true as const };
    },
  );
}
