import type { FastifyReply } from 'fastify';
import { INLINE_STYLE_PAGE_POLICY } from '../http/security-headers';

/**
 * What an expired demo link answers: one small page with everything inline (it is served from the
 * redirect path, outside the web app), pointing the visitor to sign-up.
 */
const EXPIRED_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>This demo link has expired · Sniplink</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8f9fa;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #212529; }
  main { max-width: 28rem; margin: 1.5rem; padding: 2rem; background: #fff; border-radius: 12px;
    box-shadow: 0 1px 3px rgba(0, 0, 0, .1); text-align: center; }
  .brand { font-weight: 700; font-size: 1.25rem; color: #228be6; margin: 0 0 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
  p { line-height: 1.5; color: #495057; }
  a.button { display: inline-block; margin-top: .75rem; padding: .6rem 1.2rem; border-radius: 8px;
    background: #228be6; color: #fff; text-decoration: none; font-weight: 600; }
</style>
</head>
<body>
<main>
  <p class="brand">Sniplink</p>
  <h1>This demo link has expired</h1>
  <p>Demo links made without an account last 7 days. Create a free account to keep your short links
    working and see who clicks them.</p>
  <a class="button" href="/api/login?tab=create">Sign up free</a>
</main>
</body>
</html>
`;

export function sendExpiredDemoPage(reply: FastifyReply): FastifyReply {
  return reply
    .code(410)
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', INLINE_STYLE_PAGE_POLICY)
    .type('text/html; charset=utf-8')
    .send(EXPIRED_PAGE);
}
