import { Container } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The content of a page of the signed-in shell (dashboard, marketplace, profile, admin console): as wide
 * as the header's content, so that the title lines up under the brand name on every page.
 */
export function SignedInPage({ children }: { children: ReactNode }) {
  return (
    <Container size="lg" py="xl">
      {children}
    </Container>
  );
}
