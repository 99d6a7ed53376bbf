import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendSmallPage, smallPage } from '../http/small-page';

/**
 * Whether another site sent the browser here (a link, a form, a script's navigation), as the browser
 * says in `Sec-Fetch-Site`. `same-site` counts as another site: a sibling host under the same domain may
 * be someone else's. `same-origin`, `none` (typed, bookmarked) and no header (older browsers, curl) are
 * the user's own doing.
 */
export function sentByAnotherSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

/**
 * "Sign out?": what `GET /api/logout` shows when another site sent the browser there, so that a link on
 * any page cannot sign the user out. Its button posts to `POST /api/logout` from this site (the origin
 * check lets it through); no script, so it works under its own policy.
 */
const SIGN_OUT_PAGE = smallPage({
  title: 'Sign out?',
  style: `  button, a.stay { display: inline-block; margin: .75rem .25rem 0; padding: .6rem 1.2rem; border-radius: 8px;
    font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
  button { border: 0; background: #c92a2a; color: #fff; }
  a.stay { border: 1px solid #ced4da; color: #212529; }`,
  main: `  <h1>Sign out?</h1>
  <p>Another site sent you here to sign you out of Sniplink. Sign out only if you meant to.</p>
  <form method="post" action="/api/logout">
    <button type="submit">Sign out</button>
    <a class="stay" href="/">Stay signed in</a>
  </form>`,
});

export function sendSignOutPage(reply: FastifyReply): FastifyReply {
  return sendSmallPage(reply, { status: 200, cacheControl: 'no-store', html: SIGN_OUT_PAGE });
}
