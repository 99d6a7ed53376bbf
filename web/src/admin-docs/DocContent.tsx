import { Box } from '@mantine/core';
import type { CSSProperties } from 'react';
import { Markdown } from '../components/Markdown';

/**
 * A doc's headings stay below its title: the markdown's heading sizes are taken down a few steps (the
 * typography reads them from these variables, which the rendered content inherits).
 */
const headingsBelowTitle = {
  '--mantine-h1-font-size': 'var(--mantine-font-size-lg)',
  '--mantine-h2-font-size': 'var(--mantine-font-size-md)',
  '--mantine-h3-font-size': 'var(--mantine-font-size-md)',
  '--mantine-h4-font-size': 'var(--mantine-font-size-sm)',
  '--mantine-h5-font-size': 'var(--mantine-font-size-sm)',
  '--mantine-h6-font-size': 'var(--mantine-font-size-sm)',
} as CSSProperties;

/** A doc's markdown content, rendered and sanitised by the shared renderer. */
export function DocContent({ source }: { source: string }) {
  return (
    <Box style={headingsBelowTitle}>
      <Markdown source={source} />
    </Box>
  );
}
