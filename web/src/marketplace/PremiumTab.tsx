import {
  Badge,
  Button,
  Center,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import type { AdminPremiumSlugsPage, PremiumSlug } from '@sniplink/contracts';
import type { PremiumCategory, PremiumTier } from '@sniplink/contracts/premium-slugs';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminRoute } from '../admin/places';
import {
  adminPremiumSlugsQueryOptions,
  type PremiumSlugFilters,
  premiumSlugFiltersAt,
  useDeletePremiumSlug,
  useSeedPremiumSlugs,
} from '../admin/premiumSlugsApi';
import { SearchInAddress } from '../admin/SearchInAddress';
import { ListTable } from '../components/ListTable';
import { toast } from '../components/toast';
import { StatCard } from '../dashboard/StatCard';
import { pageInAddress } from '../places';
import { categoryLook } from './categoryLooks';
import {
  BulkAddDialog,
  ConfirmDialog,
  categoryOptions,
  PremiumSlugDialog,
  problemOf,
  tierOptions,
} from './PremiumSlugDialogs';
import { dollars, tierLabels } from './premiumFacts';

/** Bought (whatever its listing), for sale, or withdrawn from sale by an admin. */
function SlugStatus({ slug }: { slug: PremiumSlug }) {
  if (slug.ownerId !== null)
    return (
      <Badge color="blue" variant="light">
        Owned
      </Badge>
    );
  return (
    <Badge color={slug.isAvailable ? 'green' : 'gray'} variant="light">
      {slug.isAvailable ? 'Available' : 'Not for sale'}
    </Badge>
  );
}

/** Owner ids are shown truncated to 8 characters. */
const ownerLabel = (ownerId: string | null) => (ownerId ? ownerId.slice(0, 8) : '—');

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; slug: PremiumSlug }
  | { kind: 'bulk' }
  | { kind: 'delete'; slug: PremiumSlug }
  | { kind: 'seed' };

/**
 * The console's Premium tab: four cards, the filters (any change returns to
 * page 1), 25 slugs a page, add, bulk add, edit, delete and seed. Search, filters and page are in the
 * address.
 */
export function PremiumTab() {
  const place = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  // The console's loader has this page of the search and filters.
  const { data: slugs } = useSuspenseQuery(adminPremiumSlugsQueryOptions(premiumSlugFiltersAt(place)));
  const close = () => setDialog(null);
  const filter = (changes: Partial<PremiumSlugFilters>) =>
    void navigate({ search: (previous) => ({ ...previous, ...changes, page: undefined }), replace: true });
  const setPage = (page: number) =>
    void navigate({ search: (previous) => ({ ...previous, page: pageInAddress(page) }), replace: true });

  return (
    <Stack gap="md">
      <PremiumStats page={slugs} />
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          {/* A slug is at most 20 characters, and so is a search for one. */}
          <SearchInAddress label="Search slugs" placeholder="Search slugs" maxLength={20} w={200} />
          <Select
            aria-label="Category"
            placeholder="All categories"
            data={categoryOptions}
            value={place.category ?? null}
            clearable
            onChange={(value) => filter({ category: (value as PremiumCategory | null) ?? undefined })}
            w={190}
          />
          <Select
            aria-label="Tier"
            placeholder="All tiers"
            data={tierOptions}
            value={place.tier ?? null}
            clearable
            onChange={(value) => filter({ tier: (value as PremiumTier | null) ?? undefined })}
            w={140}
          />
          <Select
            aria-label="Availability"
            placeholder="Any status"
            data={[
              { value: 'available', label: 'Available' },
              { value: 'owned', label: 'Owned or not for sale' },
            ]}
            value={place.availability ?? null}
            clearable
            onChange={(value) =>
              filter({ availability: (value as 'available' | 'owned' | null) ?? undefined })
            }
            w={150}
          />
        </Group>
        <Group gap="sm">
          <Button onClick={() => setDialog({ kind: 'add' })}>Add Slug</Button>
          <Button variant="light" onClick={() => setDialog({ kind: 'bulk' })}>
            Bulk Add
          </Button>
          <Button variant="default" onClick={() => setDialog({ kind: 'seed' })}>
            Seed Slugs
          </Button>
        </Group>
      </Group>
      <PremiumSlugTable
        page={slugs}
        onEdit={(slug) => setDialog({ kind: 'edit', slug })}
        onDelete={(slug) => setDialog({ kind: 'delete', slug })}
        onPage={setPage}
      />
      <PremiumSlugDialog
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        editing={dialog?.kind === 'edit' ? dialog.slug : null}
        onClose={close}
      />
      <BulkAddDialog opened={dialog?.kind === 'bulk'} onClose={close} />
      <DeleteConfirm slug={dialog?.kind === 'delete' ? dialog.slug : null} onClose={close} />
      <SeedConfirm opened={dialog?.kind === 'seed'} onClose={close} />
    </Stack>
  );
}

/** Total, available, owned and revenue, over the whole catalogue (revenue stays 0 until purchases exist). */
function PremiumStats({ page: { stats } }: { page: AdminPremiumSlugsPage }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      <StatCard label="Total Slugs" value={stats.total} />
      <StatCard label="Available" value={stats.available} />
      <StatCard label="Owned" value={stats.owned} />
      <StatCard label="Revenue" value={dollars(stats.revenue)} />
    </SimpleGrid>
  );
}

function PremiumSlugTable({
  page,
  onEdit,
  onDelete,
  onPage,
}: {
  page: AdminPremiumSlugsPage;
  onEdit: (slug: PremiumSlug) => void;
  onDelete: (slug: PremiumSlug) => void;
  onPage: (page: number) => void;
}) {
  const pageCount = Math.max(1, Math.ceil(page.total / page.pageSize));
  if (page.total === 0) return <Text c="dimmed">No premium slugs match.</Text>;
  return (
    <Stack gap="sm">
      <ListTable
        minWidth={760}
        verticalSpacing="sm"
        aria-label="Premium slugs"
        headings={['Slug', 'Category', 'Tier', 'Price', 'Status', 'Owner', 'Actions']}
      >
        {page.slugs.map((slug) => (
          <Table.Tr key={slug.id}>
            <Table.Td ff="monospace" fw={500}>
              {slug.slug}
            </Table.Td>
            <Table.Td>{categoryLook(slug.category).label}</Table.Td>
            <Table.Td>{tierLabels[slug.tier]}</Table.Td>
            <Table.Td>{dollars(slug.price)}</Table.Td>
            <Table.Td>
              <SlugStatus slug={slug} />
            </Table.Td>
            <Table.Td ff="monospace">{ownerLabel(slug.ownerId)}</Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => onEdit(slug)}
                  aria-label={`Edit ${slug.slug}`}
                >
                  Edit
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() => onDelete(slug)}
                  aria-label={`Delete ${slug.slug}`}
                >
                  Delete
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {pageCount > 1 && (
        <Center>
          <Pagination total={pageCount} value={page.page} onChange={onPage} aria-label="Pages" />
        </Center>
      )}
    </Stack>
  );
}

function DeleteConfirm({ slug, onClose }: { slug: PremiumSlug | null; onClose: () => void }) {
  const remove = useDeletePremiumSlug();
  return (
    <ConfirmDialog
      opened={slug !== null}
      title="Delete Premium Slug"
      message={`Delete "${slug?.slug ?? ''}" from the catalogue? Its short code becomes free for links.`}
      confirmLabel="Delete"
      busy={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        slug &&
        remove.mutate(slug.id, {
          onSuccess: () => {
            toast.success('Premium slug deleted');
            onClose();
          },
          onError: (error) => toast.error('Error deleting premium slug', problemOf(error)),
        })
      }
    />
  );
}

function SeedConfirm({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const seed = useSeedPremiumSlugs();
  return (
    <ConfirmDialog
      opened={opened}
      title="Seed Premium Slugs"
      message="Add the built-in catalogue of premium slugs? Slugs already in the catalogue, or held by a link, are skipped."
      confirmLabel="Seed"
      busy={seed.isPending}
      onClose={onClose}
      onConfirm={() =>
        seed.mutate(undefined, {
          onSuccess: ({ created, skipped }) => {
            toast.success(`${created} premium slugs created, ${skipped} already existed.`);
            onClose();
          },
          onError: (error) => toast.error('Seeding failed', problemOf(error)),
        })
      }
    />
  );
}
