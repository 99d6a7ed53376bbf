import { pageCopyAdminEndpoints, pageCopyEndpoints } from '@sniplink/contracts/content/endpoints';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { PageCopyService } from './page-copy-service';

const PAGES = 'The pages are privacy, terms, about, contact and help; any other is a 400.';

/** What the public informational pages read: the published copy, open to anyone. */
export async function pageCopyRoutes(api: FastifyInstance, { pageCopy }: { pageCopy: PageCopyService }) {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(pageCopyEndpoints, { tag: 'Pages' });
  typed.route({
    ...route('publishedPageCopy', {
      summary: "A page's published copy",
      description: `The last published version's title and markdown, or \`published: null\` while none is published (the page shows its built-in text then). ${PAGES}`,
      answers: { 200: 'The published version, or none' },
    }),
    handler: (request) => pageCopy.published(request.params.page),
  });
}

/**
 * The console's page copy editor: drafts, publishing and the versions published. Paths are relative to
 * `/api/admin`, behind its gate (so every change is audited under the acting admin).
 */
export async function pageCopyAdminRoutes(
  admin: FastifyInstance,
  { pageCopy }: { pageCopy: PageCopyService },
) {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(pageCopyAdminEndpoints, ADMIN);

  api.route({
    ...route('listPageCopy', {
      summary: "Every page's copy",
      description: 'The five pages, each with its draft and where it stands; one never saved is empty.',
      answers: { 200: 'The pages' },
    }),
    handler: () => pageCopy.list(),
  });

  api.route({
    ...route('pageCopy', {
      summary: "A page's copy",
      description: PAGES,
      answers: { 200: 'The draft and where it stands' },
    }),
    handler: (request) => pageCopy.get(request.params.page),
  });

  api.route({
    ...route('savePageCopy', {
      summary: 'Save a draft of a page',
      description: `Title (at most 200 characters, trimmed) and markdown content (at most 100,000 characters); either may be empty while writing. Saving keeps the page a draft: the public page shows the last published version until Publish. ${PAGES}`,
      answers: { 200: 'The draft as saved' },
    }),
    handler: (request) => pageCopy.saveDraft(request.params.page, request.body.title, request.body.content),
  });

  api.route({
    ...route('publishPageCopy', {
      summary: "Publish a page's draft",
      description: `No body. The draft becomes the next version, which the public page shows from now on. A draft without a title or without content is a 400 naming it; a draft already published (nothing saved since) is a 409. ${PAGES}`,
      answers: { 200: 'The page as published' },
      errors: { 409: ['CONFLICT'] },
    }),
    handler: (request) => pageCopy.publish(request.params.page),
  });

  api.route({
    ...route('pageCopyVersions', {
      summary: "A page's published versions",
      description: `Newest first, each as it was published. ${PAGES}`,
      answers: { 200: 'The versions' },
    }),
    handler: (request) => pageCopy.versions(request.params.page),
  });
}
