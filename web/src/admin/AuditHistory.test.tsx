import { MantineProvider } from '@mantine/core';
import type { AuditEntry, AuditPage } from '@sniplink/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuditHistory } from './AuditHistory';
import { auditHistoryQueryOptions } from './auditApi';

const USER = '01890000-0000-7000-8000-00000000000a';
const entry = (changes: Partial<AuditEntry>): AuditEntry => ({
  id: crypto.randomUUID(),
  occurredAt: '2026-11-27T09:30:00.000Z',
  action: 'UserSuspended',
  actor: { id: 'a1', email: 'admin@example.com', kind: 'admin', erased: false },
  target: { type: 'user', id: USER, streamId: `user-${USER}` },
  details: { reason: 'spam' },
  ...changes,
});

/** The history as the server renders it with these pages already loaded (no request is made). */
function rendered(props: { target?: string; actor?: string }, pages: AuditPage[]) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(auditHistoryQueryOptions(props).queryKey, {
    pages,
    pageParams: pages.map((page) => page.page),
  });
  return renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <AuditHistory {...props} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('<AuditHistory>', () => {
  it("lists a user's history, when, who and what, with Load more while older entries exist", () => {
    const html = rendered({ target: `user-${USER}` }, [
      {
        entries: [
          entry({ action: 'UserUnsuspended', details: {} }),
          entry({ actor: { id: 'operator', email: null, kind: 'operator', erased: false } }),
          entry({ action: 'SlugApproved', actor: { id: 'a2', email: null, kind: 'admin', erased: true } }),
        ],
        page: 1,
        pageSize: 3,
        hasMore: true,
      },
    ]);
    expect(html).toContain('Unsuspended');
    expect(html).toContain('Suspended');
    expect(html).toContain('reason: spam');
    expect(html).toContain('admin@example.com');
    expect(html).toContain('Operator (command line)');
    expect(html).toContain('SlugApproved');
    expect(html).toContain('Erased admin');
    expect(html).toContain('2026');
    expect(html).toContain('Load more');
    // One user's history does not repeat the user on every line.
    expect(html).not.toContain(`user ${USER}`);
  });

  it("shows each entry once across pages, the target when it is an admin's history, and no Load more at the end", () => {
    const shared = entry({});
    const html = rendered({ actor: 'a1' }, [
      { entries: [shared], page: 1, pageSize: 1, hasMore: true },
      { entries: [shared], page: 2, pageSize: 1, hasMore: false },
    ]);
    expect(html.split('reason: spam')).toHaveLength(2);
    expect(html).toContain(`user ${USER}`);
    expect(html).not.toContain('Load more');
  });

  it('says so when there is nothing yet', () => {
    const html = rendered({ target: 'user-nobody' }, [
      { entries: [], page: 1, pageSize: 20, hasMore: false },
    ]);
    expect(html).toContain('No admin actions yet.');
  });
});
