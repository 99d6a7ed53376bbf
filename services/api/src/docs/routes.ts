import type { FastifyInstance } from 'fastify';
import { INLINE_STYLE_PAGE_POLICY } from '../http/security-headers';
import { openApiDocument } from './openapi';
import { renderDocsPage } from './page';

/**
 * `GET /api/docs`: the OpenAPI document; `GET /api/docs.html`: the same as a page. Both are rendered once,
 * when the app starts, and served as they are.
 */
export function registerApiDocs(app: FastifyInstance): void {
  const document = openApiDocument();
  const json = JSON.stringify(document);
  const page = renderDocsPage(document);

  app.get('/api/docs', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(json),
  );

  app.get('/api/docs.html', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      // The page has no script and loads nothing: a policy that allows only its inline style says so.
      .header('content-security-policy', INLINE_STYLE_PAGE_POLICY)
      .send(page),
  );
}
