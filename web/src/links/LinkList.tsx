import {
  Button,
  Card,
  Checkbox,
  CloseButton,
  Group,
  Modal,
  NativeSelect,
  Pagination,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Link } from '@sniplink/contracts';
import { keepPreviousData, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { analyticsExportUrl } from '../analytics/api';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { type LinkPageSize, type LinkSort, linkPageSizes } from '../dashboard/places';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { pageInAddress } from '../places';
import { linksQueryOptions, useDeleteLinks } from './api';
import { linkTagsQueryOptions } from './controlsApi';
import { LinkCard } from './LinkCard';
import { linksCsv, sortLinks } from './linkOrder';

/** Waits this long after the last keystroke before searching (and writing the search into the address). */
const searchDelayMs = 300;

const sortChoices: { value: LinkSort | 'newest'; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'clicks', label: 'Most clicked' },
  { value: 'title', label: 'A-Z' },
];

/**
 * The user's links, five to a page: searched (title, target or code, by the server), filtered by a tag,
 * sorted, selected for a bulk delete or CSV export. The search, the tag, the order and the page are in the
 * address; the selection is not (it is this moment's work).
 */
export function LinkList() {
  const { place, go } = useDashboardPlace();
  const { data: allLinks } = useSuspenseQuery(linksQueryOptions());
  const search = useSearchBox(place.q ?? '', (q) =>
    go({ q: q || undefined, page: undefined }, { replace: true }),
  );
  const tag = place.tag ?? '';
  const filtering = search.applied !== '' || tag !== '';
  const searched = useQuery({
    ...linksQueryOptions(search.applied, tag),
    enabled: filtering,
    placeholderData: keepPreviousData,
  });
  const links = sortLinks(filtering ? (searched.data ?? []) : allLinks, place.sort);
  const linksPerPage = place.per ?? 5;
  const pageCount = Math.max(1, Math.ceil(links.length / linksPerPage));
  // Deleting the last link of the last page moves back a page rather than showing an empty one.
  const current = Math.min(place.page ?? 1, pageCount);
  const shown = links.slice((current - 1) * linksPerPage, current * linksPerPage);
  const selection = useSelection(allLinks);

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="your-links-title">
      <Group justify="space-between" mb="md">
        <Title order={2} fz="lg" id="your-links-title">
          Your Links
        </Title>
        <Button
          component="a"
          href={analyticsExportUrl}
          target="_blank"
          rel="noopener"
          variant="default"
          size="sm"
        >
          Export CSV
        </Button>
      </Group>
      {allLinks.length === 0 ? (
        <Text c="dimmed">No links yet. Create your first short link above.</Text>
      ) : (
        <Stack gap="sm">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              aria-label="Search links"
              placeholder="Search by title, short code or URL"
              type="search"
              value={search.typed}
              onChange={(event) => search.type(event.currentTarget.value)}
              rightSection={
                search.typed ? (
                  <CloseButton aria-label="Clear search" onClick={() => search.type('')} />
                ) : null
              }
              style={{ flex: '1 1 14rem' }}
            />
            <TagFilter
              tag={tag}
              onChange={(next) => go({ tag: next || undefined, page: undefined }, { replace: true })}
            />
            <SegmentedControl
              aria-label="Sort links"
              data={sortChoices}
              value={place.sort ?? 'newest'}
              onChange={(value) =>
                go(
                  { sort: value === 'newest' ? undefined : (value as LinkSort), page: undefined },
                  { replace: true },
                )
              }
            />
          </Group>
          <SelectionBar links={links} shown={shown} selection={selection} />
          {links.length === 0 ? (
            <NoneFound
              search={search.applied}
              tag={tag}
              clearSearch={() => search.type('')}
              clearTag={() => go({ tag: undefined, page: undefined }, { replace: true })}
            />
          ) : (
            shown.map((link) => (
              <LinkCard
                key={link.id}
                link={link}
                selected={selection.ids.has(link.id)}
                onSelectedChange={(selected) => selection.set([link.id], selected)}
              />
            ))
          )}
        </Stack>
      )}
      {links.length > linkPageSizes[0] && (
        <Group justify="center" gap="md" mt="md">
          {pageCount > 1 && (
            <Pagination
              total={pageCount}
              value={current}
              onChange={(page) => go({ page: pageInAddress(page) }, { replace: true })}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
              size="sm"
            />
          )}
          <NativeSelect
            aria-label="Links per page"
            size="xs"
            data={linkPageSizes.map((size) => ({ value: String(size), label: `${size} per page` }))}
            value={String(linksPerPage)}
            onChange={(event) => {
              const size = Number(event.currentTarget.value) as LinkPageSize;
              go({ per: size === 5 ? undefined : size, page: undefined }, { replace: true });
            }}
          />
        </Group>
      )}
    </Card>
  );
}

/**
 * Only the links with one tag, each tag with how many links carry it; shown once the user has tagged a
 * link. A tag in the address that no link carries any more is still offered, so the choice reads true.
 */
function TagFilter({ tag, onChange }: { tag: string; onChange(tag: string): void }) {
  const tags = useQuery(linkTagsQueryOptions()).data ?? [];
  if (tags.length === 0 && tag === '') return null;
  const known = tags.some((count) => count.tag === tag);
  const options = [
    { value: '', label: 'All tags' },
    ...tags.map((count) => ({ value: count.tag, label: `${count.tag} (${count.count})` })),
    ...(tag !== '' && !known ? [{ value: tag, label: `${tag} (0)` }] : []),
  ];
  return (
    <NativeSelect
      aria-label="Filter by tag"
      data={options}
      value={tag}
      onChange={(event) => onChange(event.currentTarget.value)}
      style={{ flex: '0 1 12rem' }}
    />
  );
}

/** What an empty result was looked for, and the way back to every link. */
function NoneFound({
  search,
  tag,
  clearSearch,
  clearTag,
}: {
  search: string;
  tag: string;
  clearSearch(): void;
  clearTag(): void;
}) {
  const tagged = tag ? ` tagged “${tag}”` : '';
  const matching = search ? ` match “${search}”` : '';
  return (
    <Group gap="xs">
      <Text c="dimmed">
        No links{tagged}
        {search && tag ? ' that' : ''}
        {matching}.
      </Text>
      {search && (
        <Button variant="subtle" size="compact-sm" onClick={clearSearch}>
          Clear search
        </Button>
      )}
      {tag && (
        <Button variant="subtle" size="compact-sm" onClick={clearTag}>
          Show all tags
        </Button>
      )}
    </Group>
  );
}

/**
 * The search as typed (at once) and as applied (once typing stops 300 ms), written to the address; a
 * change of the address from elsewhere (back, a new link clearing the search) is taken into the box.
 */
function useSearchBox(inAddress: string, apply: (q: string) => void) {
  const [typed, type] = useState(inAddress);
  const [settled] = useDebouncedValue(typed.trim(), searchDelayMs);
  const lastApplied = useRef(inAddress);
  const applyNow = useRef(apply);
  applyNow.current = apply;
  useEffect(() => {
    if (inAddress === lastApplied.current) return;
    lastApplied.current = inAddress;
    type(inAddress);
  }, [inAddress]);
  useEffect(() => {
    if (settled === lastApplied.current) return;
    lastApplied.current = settled;
    applyNow.current(settled);
  }, [settled]);
  return { typed, type, applied: inAddress.trim() };
}

interface Selection {
  ids: ReadonlySet<string>;
  set(ids: readonly string[], selected: boolean): void;
  clear(): void;
}

/** The links ticked, kept across pages and searches; a link that is gone is no longer selected. */
function useSelection(allLinks: readonly Link[]): Selection {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const live = new Set(allLinks.map((link) => link.id));
  const selected = new Set([...ids].filter((id) => live.has(id)));
  return {
    ids: selected,
    set: (changed, on) =>
      setIds((previous) => {
        const next = new Set(previous);
        for (const id of changed) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    clear: () => setIds(new Set()),
  };
}

/** Select the page's links; with some selected: how many, export them as CSV, delete them. */
function SelectionBar({
  links,
  shown,
  selection,
}: {
  links: readonly Link[];
  shown: readonly Link[];
  selection: Selection;
}) {
  const [confirming, setConfirming] = useState(false);
  const deleteLinks = useDeleteLinks();
  const onPage = shown.filter((link) => selection.ids.has(link.id)).length;
  const chosen = links.filter((link) => selection.ids.has(link.id));
  const count = selection.ids.size;

  const exportCsv = () => {
    const url = URL.createObjectURL(new Blob([linksCsv(chosen)], { type: 'text/csv;charset=utf-8' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = 'sniplink-links.csv';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    URL.revokeObjectURL(url);
  };

  const remove = () =>
    deleteLinks.mutateAsync([...selection.ids]).then(
      ({ deleted, failed }) => {
        setConfirming(false);
        selection.clear();
        if (failed === 0) toast.success(`${deleted} ${deleted === 1 ? 'link' : 'links'} deleted`);
        else
          toast.error(
            'Not all deleted',
            `${deleted} deleted, ${failed} could not be deleted. Please try again.`,
          );
      },
      () => toast.error('Error', 'Failed to delete links'),
    );

  return (
    <Group gap="sm" mih={30}>
      <Checkbox
        label="Select all on this page"
        checked={shown.length > 0 && onPage === shown.length}
        indeterminate={onPage > 0 && onPage < shown.length}
        onChange={(event) =>
          selection.set(
            shown.map((link) => link.id),
            event.currentTarget.checked,
          )
        }
      />
      {count > 0 && (
        <>
          <Text size="sm" fw={500} aria-live="polite">
            {count} selected
          </Text>
          <Button size="compact-sm" variant="default" onClick={exportCsv} disabled={chosen.length === 0}>
            Export selected
          </Button>
          <Button size="compact-sm" variant="light" color="red" onClick={() => setConfirming(true)}>
            Delete selected
          </Button>
          <Button size="compact-sm" variant="subtle" onClick={selection.clear}>
            Clear selection
          </Button>
        </>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Delete Links" centered>
        <Text>
          Delete {count} {count === 1 ? 'link' : 'links'}? Their short URLs stop working. This action cannot
          be undone.
        </Text>
        <DialogActions
          onCancel={() => setConfirming(false)}
          mt="lg"
          color="red"
          onClick={() => void remove()}
          loading={deleteLinks.isPending}
        >
          Delete {count} {count === 1 ? 'link' : 'links'}
        </DialogActions>
      </Modal>
    </Group>
  );
}
