import type { FastifyReply } from 'fastify';
import { sendSmallPage, smallPage } from '../http/small-page';

/**
 * What `/s/{code}` answers for a link or premium slug of a suspended account: one small page from the
 * redirect path. A 403, not a 410: the suspension is undone by unsuspending, and a 410 is permanent and
 * may be cached by heuristics; a 451 would claim a legal demand. `no-store`, so the redirect comes back
 * the moment the account is unsuspended.
 */
const UNAVAILABLE_PAGE = smallPage({
  title: 'This link is unavailable',
  style: '',
  main: `  <h1>This link is unavailable</h1>
  <p>The account this short link belongs to is suspended, so the link does not lead anywhere for now.</p>`,
});

export function sendUnavailableLinkPage(reply: FastifyReply): FastifyReply {
  return sendSmallPage(reply, { status: 403, cacheControl: 'private, no-store', html: UNAVAILABLE_PAGE });
}
