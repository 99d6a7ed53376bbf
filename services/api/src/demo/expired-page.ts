import type { FastifyReply } from 'fastify';
import { sendSmallPage, smallPage } from '../http/small-page';

/**
 * What an expired demo link answers: one small page (it is served from the redirect path, outside the
 * web app), pointing the visitor to sign-up.
 */
const EXPIRED_PAGE = smallPage({
  title: 'This demo link has expired',
  style: `  a.button { display: inline-block; margin-top: .75rem; padding: .6rem 1.2rem; border-radius: 8px;
    background: #228be6; color: #fff; text-decoration: none; font-weight: 600; }`,
  main: `  <h1>This demo link has expired</h1>
  <p>Demo links made without an account last 7 days. Create a free account to keep your short links
    working and see who clicks them.</p>
  <a class="button" href="/api/login?tab=create">Sign up free</a>`,
});

export function sendExpiredDemoPage(reply: FastifyReply): FastifyReply {
  return sendSmallPage(reply, { status: 410, cacheControl: 'private, no-store', html: EXPIRED_PAGE });
}
