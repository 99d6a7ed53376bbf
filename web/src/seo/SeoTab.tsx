import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { keywordsOf, type SeoEntry, type SeoPage, seoPageKeys, seoPages } from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { adminRoute } from '../admin/places';
import { ListTable } from '../components/ListTable';
import { consoleSeoQueryOptions } from './api';
import { pageNames } from './pageNames';
import { SeoEditor } from './SeoEditor';

/**
 * The console's SEO tab: the nine public pages with their paths and whether their entry is set, and the
 * editor of one (its place in the address, `?seoPage=`).
 */
export function SeoTab() {
  const { data: entries } = useSuspenseQuery(consoleSeoQueryOptions());
  const { seoPage } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const open = (page: SeoPage) => void navigate({ search: (previous) => ({ ...previous, seoPage: page }) });
  const close = () =>
    void navigate({ search: (previous) => ({ ...previous, seoPage: undefined }), replace: true });
  const entryOf = (page: SeoPage) => entries.find((entry) => entry.page === page);
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2} size="h3">
          SEO Settings
        </Title>
        <Text c="dimmed" size="sm">
          What search engines and link previews show for each public page. A page without settings shows its
          own title and description.
        </Text>
      </Stack>
      <ListTable
        minWidth={820}
        verticalSpacing="sm"
        aria-label="SEO settings of the public pages"
        headings={['Page', 'Status', 'Title', 'Description', 'Keywords', 'Open Graph', { hidden: 'Actions' }]}
      >
        {seoPageKeys.map((page) => (
          <SeoRow key={page} page={page} entry={entryOf(page)} onOpen={() => open(page)} />
        ))}
      </ListTable>
      {seoPage && <SeoEditor page={seoPage} entry={entryOf(seoPage)} onClose={close} />}
    </Stack>
  );
}

function SeoRow({ page, entry, onOpen }: { page: SeoPage; entry: SeoEntry | undefined; onOpen(): void }) {
  const name = pageNames[page];
  const hasOpenGraph = Boolean(entry && (entry.ogTitle || entry.ogDescription || entry.ogImage));
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500}>{name}</Text>
        <Text size="sm" c="dimmed" ff="monospace">
          {seoPages[page]}
        </Text>
      </Table.Td>
      <Table.Td>
        {entry ? (
          <Badge color="green" variant="light">
            Configured
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            Needs Setup
          </Badge>
        )}
        {entry && !entry.isPublic && (
          <Text size="xs" c="dimmed" mt={4}>
            Not public
          </Text>
        )}
      </Table.Td>
      <Table.Td maw={220}>
        <Text size="sm" lineClamp={2}>
          {entry?.title ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td maw={280}>
        <Text size="sm" lineClamp={2} c={entry?.description ? undefined : 'dimmed'}>
          {entry?.description ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{keywordsOf(entry?.keywords ?? null).length.toLocaleString()}</Text>
      </Table.Td>
      <Table.Td>
        <Badge color={hasOpenGraph ? 'blue' : 'gray'} variant="light">
          {hasOpenGraph ? 'Set' : 'Not set'}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Button size="xs" variant="light" onClick={onOpen} aria-label={`Edit SEO settings of ${name}`}>
          Edit
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
