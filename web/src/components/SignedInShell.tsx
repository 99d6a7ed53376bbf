import { AppShell } from '@mantine/core';
import type { ReactNode } from 'react';

/** The shell's header height; the signed-out header has the same. */
const headerHeight = 60;

/**
 * The one layout of every signed-in page (dashboard, marketplace, Support, profile, admin console): the
 * fixed header and the main content under it.
 */
export function SignedInShell({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <AppShell header={{ height: headerHeight }} padding={0}>
      <AppShell.Header>{header}</AppShell.Header>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
