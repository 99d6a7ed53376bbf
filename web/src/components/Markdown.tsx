import { Typography } from '@mantine/core';
import { useMemo } from 'react';
import { renderMarkdown } from './markdown';

/**
 * Markdown written by an operator, shown with the theme's typography. Import it only from route components
 * (the router splits those into their own chunks), so the markdown library stays out of the landing page's
 * first load.
 */
export function Markdown({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes raw HTML and refuses unsafe links.
  return <Typography dangerouslySetInnerHTML={{ __html: html }} />;
}
