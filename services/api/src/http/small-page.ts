import type { FastifyReply } from 'fastify';
import { INLINE_STYLE_PAGE_POLICY } from './security-headers';

/** The look every small server-made page shares (no web app behind it): a card in the middle. */
const BASE_STYLE = `
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8f9fa;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #212529; }
  main { max-width: 28rem; margin: 1.5rem; padding: 2rem; background: #fff; border-radius: 12px;
    box-shadow: 0 1px 3px rgba(0, 0, 0, .1); text-align: center; }
  .brand { font-weight: 700; font-size: 1.25rem; color: #1864ab; margin: 0 0 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
  p { line-height: 1.5; color: #495057; }`;

/**
 * A page with everything inline and no script, for answers served outside the web app (an expired demo
 * link, "Sign out?"): it works under the narrow policy it is sent with. `main` is trusted HTML.
 */
export function smallPage(page: { title: string; style: string; main: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title} · Sniplink</title>
<style>${BASE_STYLE}
${page.style}
</style>
</head>
<body>
<main>
  <p class="brand">Sniplink</p>
${page.main}
</main>
</body>
</html>
`;
}

export function sendSmallPage(
  reply: FastifyReply,
  page: { status: number; cacheControl: string; html: string; policy?: string },
): FastifyReply {
  return reply
    .code(page.status)
    .header('cache-control', page.cacheControl)
    .header('content-security-policy', page.policy ?? INLINE_STYLE_PAGE_POLICY)
    .type('text/html; charset=utf-8')
    .send(page.html);
}
