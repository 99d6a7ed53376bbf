import type { FastifyReply, FastifyRequest } from 'fastify';
import { INLINE_STYLE_PAGE_POLICY } from '../http/security-headers';

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
const SIGN_OUT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sign out? · Sniplink</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8f9fa;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #212529; }
  main { max-width: 28rem; margin: 1.5rem; padding: 2rem; background: #fff; border-radius: 12px;
    box-shadow: 0 1px 3px rgba(0, 0, 0, .1); text-align: center; }
  .brand { font-weight: 700; font-size: 1.25rem; color: #1864ab; margin: 0 0 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
  p { line-height: 1.5; color: #495057; }
  button, a.stay { display: inline-block; margin: .75rem .25rem 0; padding: .6rem 1.2rem; border-radius: 8px;
    font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
  button { border: 0; background: #c92a2a; color: #fff; }
  a.stay { border: 1px solid #ced4da; color: #212529; }
</style>
</head>
<body>
<main>
  <p class="brand">Sniplink</p>
  <h1>Sign out?</h1>
  <p>Another site sent you here to sign you out of Sniplink. Sign out only if you meant to.</p>
  <form method="post" action="/api/logout">
    <button type="submit">Sign out</button>
    <a class="stay" href="/">Stay signed in</a>
  </form>
</main>
</body>
</html>
`;

export function sendSignOutPage(reply: FastifyReply): FastifyReply {
  return reply
    .code(200)
    .header('cache-control', 'no-store')
    .header('content-security-policy', INLINE_STYLE_PAGE_POLICY)
    .type('text/html; charset=utf-8')
    .send(SIGN_OUT_PAGE);
}
