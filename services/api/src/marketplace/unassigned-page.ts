import type { FastifyReply } from 'fastify';
import { sendSmallPage, smallPage } from '../http/small-page';

/**
 * What `/s/{slug}` answers for a premium slug with no target (unsold, or its owner set none yet): one
 * small page from the redirect path, pointing the visitor to the marketplace. A 404: nothing is there.
 */
const UNASSIGNED_PAGE = smallPage({
  title: 'This premium link is not set up yet',
  style: `  a.button { display: inline-block; margin-top: .75rem; padding: .6rem 1.2rem; border-radius: 8px;
    background: #228be6; color: #fff; text-decoration: none; font-weight: 600; }`,
  main: `  <h1>This premium link is not set up yet</h1>
  <p>This short link is a premium slug whose owner has not chosen where it leads. Check back later, or
    find a premium slug of your own.</p>
  <a class="button" href="/marketplace">Browse the marketplace</a>`,
});

export function sendUnassignedPremiumPage(reply: FastifyReply): FastifyReply {
  return sendSmallPage(reply, { status: 404, cacheControl: 'no-store', html: UNASSIGNED_PAGE });
}
