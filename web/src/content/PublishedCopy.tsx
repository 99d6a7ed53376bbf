import type { PageCopyKey } from '@sniplink/contracts/content/api';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { InfoPage } from '../components/InfoPage';
import { Markdown } from '../components/Markdown';
import { publishedPageCopyQueryOptions } from './publishedApi';

/**
 * An informational page: the copy published in the console when there is some, else `builtIn`, the
 * page's own text. Only route components render it, so the markdown renderer loads with their chunks.
 */
export function PublishedCopyOr({ page, builtIn }: { page: PageCopyKey; builtIn: ReactNode }) {
  const { data } = useSuspenseQuery(publishedPageCopyQueryOptions(page));
  if (!data.published) return builtIn;
  return (
    <InfoPage title={data.published.title}>
      <Markdown source={data.published.content} />
    </InfoPage>
  );
}
