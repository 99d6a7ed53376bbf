import { MantineProvider } from '@mantine/core';
import type { PageCopyKey, PublicPageCopy } from '@sniplink/contracts/content/api';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PublishedCopyOr } from './PublishedCopy';
import { publishedPageCopyQueryOptions } from './publishedApi';

/** The page as the server renders it once its loader has the answer (no request is made). */
function rendered(page: PageCopyKey, answer: PublicPageCopy) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(publishedPageCopyQueryOptions(page).queryKey, answer);
  return renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <PublishedCopyOr page={page} builtIn={<p>The built-in terms.</p>} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('PublishedCopyOr', () => {
  it('shows the built-in text while nothing is published', () => {
    const html = rendered('terms', { page: 'terms', published: null });
    expect(html).toContain('<p>The built-in terms.</p>');
  });

  it('shows the published title and markdown instead, with raw HTML as text', () => {
    const html = rendered('terms', {
      page: 'terms',
      published: {
        version: 3,
        title: 'Terms of Use',
        content: '## Refunds\n\nWithin **14 days**.\n\n<script>alert(1)</script>',
        publishedAt: '2027-01-01T00:00:00.000Z',
      },
    });
    expect(html).not.toContain('The built-in terms.');
    expect(html).toContain('<title>Terms of Use | Sniplink</title>');
    expect(html).toMatch(/<h1[^>]*>Terms of Use<\/h1>/);
    expect(html).toContain('<h2>Refunds</h2>');
    expect(html).toContain('<strong>14 days</strong>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
  });
});
