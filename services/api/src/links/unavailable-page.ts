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

/**
 * What `/s/{code}` answers while the code waits for an admin's approval (it contains a protected brand):
 * 423 Locked, the code exists and is held, not missing (404) nor gone for good (410), and not a
 * suspension (403); no click is counted. `no-store`, so the redirect follows the approval at once.
 */
const PENDING_REVIEW_PAGE = smallPage({
  title: 'This link is pending review',
  style: '',
  main: `  <h1>This link is pending review</h1>
  <p>This short link contains a protected brand name. It leads to its destination once an admin has approved it.</p>`,
});

export function sendPendingReviewPage(reply: FastifyReply): FastifyReply {
  return sendSmallPage(reply, { status: 423, cacheControl: 'private, no-store', html: PENDING_REVIEW_PAGE });
}
