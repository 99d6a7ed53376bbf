import {
  Badge,
  Button,
  Center,
  Group,
  Modal,
  Pagination,
  Select,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type ApprovalStatus,
  approvalStatuses,
  BRAND_REJECTION_REASON,
  type BrandCategory,
  brandCategories,
  MODERATION_ENTRY_MAX,
  type ProhibitedWord,
  type ProtectedBrand,
  type SlugApproval,
  type WordCategory,
  type WordSeverity,
  wordCategories,
  wordSeverities,
} from '@sniplink/contracts/moderation/api';
import { useSuspenseQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { serverMessageOf } from '../admin/configApi';
import { adminRoute, moderationLists } from '../admin/places';
import { DialogActions } from '../components/DialogActions';
import { ListTable } from '../components/ListTable';
import { toast } from '../components/toast';
import { pageInAddress } from '../places';
import {
  prohibitedWordsQueryOptions,
  protectedBrandsQueryOptions,
  slugApprovalsQueryOptions,
  useAddBrand,
  useAddWord,
  useApproveSlug,
  useDeleteBrand,
  useDeleteWord,
  useRejectSlug,
  useSwitchBrand,
  useSwitchWord,
} from './api';

/** Rows per page of each list. */
const PER_PAGE = 10;

const capitalised = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
const choices = (values: readonly string[]) => values.map((value) => ({ value, label: capitalised(value) }));
const dateLabel = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** The Moderate tab: the prohibited words, the protected brands and the approvals queue, each its own place. */
export function ModerateTab() {
  const { list = 'words' } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const open = (next: string | null) => {
    if (!next) return;
    const chosen = next === 'words' ? undefined : next;
    void navigate({
      search: (previous) => ({
        ...previous,
        list: chosen as typeof list | undefined,
        page: undefined,
        approval: undefined,
      }),
    });
  };
  return (
    <Tabs value={list} onChange={open} keepMounted={false} variant="pills">
      <Tabs.List mb="md">
        {moderationLists.map((value) => (
          <Tabs.Tab key={value} value={value}>
            {listLabels[value]}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="words">
        <WordsPanel />
      </Tabs.Panel>
      <Tabs.Panel value="brands">
        <BrandsPanel />
      </Tabs.Panel>
      <Tabs.Panel value="approvals">
        <ApprovalsPanel />
      </Tabs.Panel>
    </Tabs>
  );
}

const listLabels: Record<(typeof moderationLists)[number], string> = {
  words: 'Prohibited Words',
  brands: 'Protected Brands',
  approvals: 'Approvals',
};

/** This page's rows of a list, with the pager under them when there is more than one page. */
function Paged<T>({ rows, render }: { rows: readonly T[]; render(page: readonly T[]): ReactNode }) {
  const { page = 1 } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const pageCount = Math.max(1, Math.ceil(rows.length / PER_PAGE));
  const shown = Math.min(page, pageCount);
  const setPage = (next: number) =>
    void navigate({ search: (previous) => ({ ...previous, page: pageInAddress(next) }), replace: true });
  return (
    <>
      {render(rows.slice((shown - 1) * PER_PAGE, shown * PER_PAGE))}
      {pageCount > 1 && (
        <Center>
          <Pagination
            total={pageCount}
            value={shown}
            onChange={setPage}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            size="sm"
          />
        </Center>
      )}
    </>
  );
}

function WordsPanel() {
  const { data: words } = useSuspenseQuery(prohibitedWordsQueryOptions());
  const [deleting, setDeleting] = useState<ProhibitedWord | undefined>();
  const switchWord = useSwitchWord();
  const remove = useDeleteWord();
  return (
    <Stack gap="md">
      <AddWordForm />
      {words.length === 0 ? (
        <Text c="dimmed">
          No prohibited words yet: a short code containing one of these words is refused.
        </Text>
      ) : (
        <Paged
          rows={words}
          render={(page) => (
            <ListTable
              minWidth={640}
              verticalSpacing="xs"
              aria-label="Prohibited words"
              headings={['Word', 'Category', 'Severity', 'Active', 'Added', { hidden: 'Actions' }]}
            >
              {page.map((word) => (
                <Table.Tr key={word.id}>
                  <Table.Td fw={500}>{word.word}</Table.Td>
                  <Table.Td>{capitalised(word.category)}</Table.Td>
                  <Table.Td>
                    <SeverityBadge severity={word.severity} />
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={word.isActive}
                      disabled={switchWord.isPending}
                      aria-label={`Active: ${word.word}`}
                      onChange={(event) =>
                        switchWord.mutate(
                          { id: word.id, isActive: event.currentTarget.checked },
                          {
                            onError: (error) =>
                              toast.error('Failed to update word status', serverMessageOf(error)),
                          },
                        )
                      }
                    />
                  </Table.Td>
                  <Table.Td>{dateLabel(word.createdAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      onClick={() => setDeleting(word)}
                      aria-label={`Delete ${word.word}`}
                    >
                      Delete
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          )}
        />
      )}
      <ConfirmDelete
        title="Delete Prohibited Word"
        name={deleting?.word}
        loading={remove.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Prohibited word deleted');
              setDeleting(undefined);
            },
            onError: (error) => toast.error('Failed to delete prohibited word', serverMessageOf(error)),
          })
        }
      />
    </Stack>
  );
}

const severityColors: Record<WordSeverity, string> = {
  low: 'gray',
  medium: 'yellow',
  high: 'orange',
  critical: 'red',
};

function SeverityBadge({ severity }: { severity: WordSeverity }) {
  return (
    <Badge color={severityColors[severity]} variant="light">
      {capitalised(severity)}
    </Badge>
  );
}

/** Adds a word with the defaults offensive and medium; the word is required. */
function AddWordForm() {
  const [word, setWord] = useState('');
  const [category, setCategory] = useState<WordCategory>('offensive');
  const [severity, setSeverity] = useState<WordSeverity>('medium');
  const [error, setError] = useState<string | undefined>();
  const add = useAddWord();
  const submit = () => {
    if (!word.trim()) return setError('Word is required');
    setError(undefined);
    add.mutate(
      { word, category, severity },
      {
        onSuccess: () => {
          toast.success('Prohibited word added');
          setWord('');
        },
        onError: (failure) => toast.error('Failed to add prohibited word', serverMessageOf(failure)),
      },
    );
  };
  return (
    <form
      aria-label="Add prohibited word"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Group align="flex-start" wrap="wrap">
        <TextInput
          label="Word"
          required
          maxLength={MODERATION_ENTRY_MAX}
          value={word}
          error={error}
          onChange={(event) => setWord(event.currentTarget.value)}
        />
        <Select
          label="Category"
          data={choices(wordCategories)}
          value={category}
          allowDeselect={false}
          onChange={(value) => value && setCategory(value as WordCategory)}
        />
        <Select
          label="Severity"
          data={choices(wordSeverities)}
          value={severity}
          allowDeselect={false}
          onChange={(value) => value && setSeverity(value as WordSeverity)}
        />
        <Button type="submit" mt={25} loading={add.isPending}>
          Add Word
        </Button>
      </Group>
    </form>
  );
}

function BrandsPanel() {
  const { data: brands } = useSuspenseQuery(protectedBrandsQueryOptions());
  const [deleting, setDeleting] = useState<ProtectedBrand | undefined>();
  const switchBrand = useSwitchBrand();
  const remove = useDeleteBrand();
  return (
    <Stack gap="md">
      <AddBrandForm />
      {brands.length === 0 ? (
        <Text c="dimmed">
          No protected brands yet: a short code containing one waits for your approval, or is refused.
        </Text>
      ) : (
        <Paged
          rows={brands}
          render={(page) => (
            <ListTable
              minWidth={680}
              verticalSpacing="xs"
              aria-label="Protected brands"
              headings={['Brand', 'Category', 'Requires approval', 'Active', 'Added', { hidden: 'Actions' }]}
            >
              {page.map((brand) => (
                <Table.Tr key={brand.id}>
                  <Table.Td fw={500}>{brand.brand}</Table.Td>
                  <Table.Td>{capitalised(brand.category)}</Table.Td>
                  <Table.Td>{brand.requiresApproval ? 'Yes' : 'No: refused'}</Table.Td>
                  <Table.Td>
                    <Switch
                      checked={brand.isActive}
                      disabled={switchBrand.isPending}
                      aria-label={`Active: ${brand.brand}`}
                      onChange={(event) =>
                        switchBrand.mutate(
                          { id: brand.id, isActive: event.currentTarget.checked },
                          {
                            onError: (error) =>
                              toast.error('Failed to update brand status', serverMessageOf(error)),
                          },
                        )
                      }
                    />
                  </Table.Td>
                  <Table.Td>{dateLabel(brand.createdAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      onClick={() => setDeleting(brand)}
                      aria-label={`Delete ${brand.brand}`}
                    >
                      Delete
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </ListTable>
          )}
        />
      )}
      <ConfirmDelete
        title="Delete Protected Brand"
        name={deleting?.brand}
        loading={remove.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Protected brand deleted');
              setDeleting(undefined);
            },
            onError: (error) => toast.error('Failed to delete protected brand', serverMessageOf(error)),
          })
        }
      />
    </Stack>
  );
}

/** Adds a brand with the defaults tech and requires approval; the name is required. */
function AddBrandForm() {
  const [brand, setBrand] = useState('');
  const [category, setCategory] = useState<BrandCategory>('tech');
  const [requiresApproval, setRequiresApproval] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const add = useAddBrand();
  const submit = () => {
    if (!brand.trim()) return setError('Brand name is required');
    setError(undefined);
    add.mutate(
      { brand, category, requiresApproval },
      {
        onSuccess: () => {
          toast.success('Protected brand added');
          setBrand('');
        },
        onError: (failure) => toast.error('Failed to add protected brand', serverMessageOf(failure)),
      },
    );
  };
  return (
    <form
      aria-label="Add protected brand"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Group align="flex-start" wrap="wrap">
        <TextInput
          label="Brand"
          required
          maxLength={MODERATION_ENTRY_MAX}
          value={brand}
          error={error}
          onChange={(event) => setBrand(event.currentTarget.value)}
        />
        <Select
          label="Category"
          data={choices(brandCategories)}
          value={category}
          allowDeselect={false}
          onChange={(value) => value && setCategory(value as BrandCategory)}
        />
        <Switch
          mt={32}
          label="Requires approval"
          checked={requiresApproval}
          onChange={(event) => setRequiresApproval(event.currentTarget.checked)}
        />
        <Button type="submit" mt={25} loading={add.isPending}>
          Add Brand
        </Button>
      </Group>
    </form>
  );
}

const statusColors: Record<ApprovalStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};

function ApprovalsPanel() {
  const { approval: status = 'pending' } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const { data: approvals } = useSuspenseQuery(slugApprovalsQueryOptions(status));
  const approve = useApproveSlug();
  const reject = useRejectSlug();
  const busy = approve.isPending || reject.isPending;
  const filter = (next: string | null) =>
    void navigate({
      search: (previous) => ({
        ...previous,
        approval: next === 'pending' ? undefined : (next as ApprovalStatus),
        page: undefined,
      }),
      replace: true,
    });
  return (
    <Stack gap="md">
      <Select
        label="Status"
        w={200}
        data={choices(approvalStatuses)}
        value={status}
        allowDeselect={false}
        onChange={filter}
      />
      {approvals.length === 0 ? (
        <Text c="dimmed">
          {status === 'pending'
            ? 'Nothing waits for approval: short codes containing a protected brand appear here.'
            : `No ${status} short codes.`}
        </Text>
      ) : (
        <Paged
          rows={approvals}
          render={(page) => (
            <ListTable
              minWidth={720}
              verticalSpacing="xs"
              aria-label="Slug approvals"
              headings={['Short code', 'Brand', 'User', 'Status', 'Requested', { hidden: 'Actions' }]}
            >
              {page.map((approval) => (
                <ApprovalRow
                  key={approval.id}
                  approval={approval}
                  busy={busy}
                  onApprove={() =>
                    approve.mutate(approval.id, {
                      onSuccess: () => toast.success('Short code approved'),
                      onError: (error) => toast.error('Failed to approve slug', serverMessageOf(error)),
                    })
                  }
                  onReject={() =>
                    reject.mutate(
                      { id: approval.id, reason: BRAND_REJECTION_REASON },
                      {
                        onSuccess: () => toast.success('Short code rejected'),
                        onError: (error) => toast.error('Failed to reject slug', serverMessageOf(error)),
                      },
                    )
                  }
                />
              ))}
            </ListTable>
          )}
        />
      )}
    </Stack>
  );
}

function ApprovalRow(props: { approval: SlugApproval; busy: boolean; onApprove(): void; onReject(): void }) {
  const { approval, busy } = props;
  return (
    <Table.Tr>
      <Table.Td ff="monospace">{approval.slug}</Table.Td>
      <Table.Td>{approval.matchedBrand}</Table.Td>
      <Table.Td ff="monospace" title={approval.userId}>
        {approval.userId.slice(0, 8)}
      </Table.Td>
      <Table.Td>
        <Badge color={statusColors[approval.status]} variant="light">
          {capitalised(approval.status)}
        </Badge>
      </Table.Td>
      <Table.Td>{dateLabel(approval.createdAt)}</Table.Td>
      <Table.Td>
        {approval.status === 'pending' && (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              color="green"
              disabled={busy}
              onClick={props.onApprove}
              aria-label={`Approve ${approval.slug}`}
            >
              Approve
            </Button>
            <Button
              size="xs"
              color="red"
              variant="light"
              disabled={busy}
              onClick={props.onReject}
              aria-label={`Reject ${approval.slug}`}
            >
              Reject
            </Button>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Delete asks for confirmation. */
function ConfirmDelete(props: {
  title: string;
  name: string | undefined;
  loading: boolean;
  onClose(): void;
  onConfirm(): void;
}) {
  return (
    <Modal opened={props.name !== undefined} onClose={props.onClose} title={props.title} centered>
      <Text>
        Are you sure you want to delete <strong>{props.name}</strong>? Short codes are no longer checked
        against it.
      </Text>
      <DialogActions
        onCancel={props.onClose}
        mt="lg"
        color="red"
        onClick={props.onConfirm}
        loading={props.loading}
      >
        Delete
      </DialogActions>
    </Modal>
  );
}
