import { Modal, Progress, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import type { PremiumSlug } from '@sniplink/contracts';
import {
  type PremiumCategory,
  type PremiumTier,
  premiumCategories,
  premiumTiers,
} from '@sniplink/contracts/premium-slugs';
import { useEffect, useRef, useState } from 'react';
import {
  createPremiumSlug,
  useCreatePremiumSlug,
  useRefreshPremiumSlugs,
  useUpdatePremiumSlug,
} from '../admin/premiumSlugsApi';
import { ApiError } from '../api/http';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { categoryLook } from './categoryLooks';
import { centsOf, slugsOfLines, tierLabels } from './premiumFacts';

/** One request every 100 ms while bulk adding. */
export const bulkCreateSpacingMs = 100;
/** The form's defaults: $25, common-words, standard. */
const DEFAULT_DOLLARS = '25';

export const categoryOptions = premiumCategories.map((value) => ({
  value,
  label: categoryLook(value).label,
}));
export const tierOptions = premiumTiers.map((value) => ({ value, label: tierLabels[value] }));

/** The server's own words when it gave some, else the status line. */
export const problemOf = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';

/** Price in cents, or null after telling the admin why not. */
function checkedPrice(dollars: string): number | null {
  const cents = centsOf(dollars);
  if (Number.isNaN(cents) || cents < 0) {
    toast.error('Invalid price', 'Price must be greater than or equal to 0.');
    return null;
  }
  return cents;
}

function CategoryTierPrice({
  category,
  tier,
  dollars,
  onCategory,
  onTier,
  onDollars,
}: {
  category: PremiumCategory;
  tier: PremiumTier;
  dollars: string;
  onCategory: (value: PremiumCategory) => void;
  onTier: (value: PremiumTier) => void;
  onDollars: (value: string) => void;
}) {
  return (
    <>
      <Select
        label="Category"
        data={categoryOptions}
        value={category}
        allowDeselect={false}
        onChange={(value) => value && onCategory(value as PremiumCategory)}
      />
      <Select
        label="Tier"
        data={tierOptions}
        value={tier}
        allowDeselect={false}
        onChange={(value) => value && onTier(value as PremiumTier)}
      />
      <TextInput
        label="Price (USD)"
        inputMode="decimal"
        leftSection="$"
        value={dollars}
        onChange={(event) => onDollars(event.currentTarget.value)}
      />
    </>
  );
}

/** Add one slug, or edit one (`editing`): the slug itself is fixed once added. */
export function PremiumSlugDialog({
  opened,
  editing,
  onClose,
}: {
  opened: boolean;
  editing: PremiumSlug | null;
  onClose: () => void;
}) {
  const title = editing ? 'Edit Premium Slug' : 'Add Premium Slug';
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <PremiumSlugForm key={editing?.id ?? 'new'} editing={editing} onDone={onClose} />
    </Modal>
  );
}

function PremiumSlugForm({ editing, onDone }: { editing: PremiumSlug | null; onDone: () => void }) {
  const create = useCreatePremiumSlug();
  const update = useUpdatePremiumSlug();
  const [slug, setSlug] = useState(editing?.slug ?? '');
  const [category, setCategory] = useState<PremiumCategory>(editing?.category ?? 'common-words');
  const [tier, setTier] = useState<PremiumTier>(editing?.tier ?? 'standard');
  const [dollars, setDollars] = useState(editing ? String(editing.price / 100) : DEFAULT_DOLLARS);
  const [stripePriceId, setStripePriceId] = useState(editing?.stripePriceId ?? '');
  const [isAvailable, setAvailable] = useState(editing?.isListed ?? true);

  const submit = () => {
    const cleanSlug = slug.trim().toLowerCase();
    if (!editing && cleanSlug === '') return toast.error('Slug required', 'Please enter a slug.');
    const price = checkedPrice(dollars);
    if (price === null) return;
    const priceId = stripePriceId.trim();
    const fields = { category, tier, price, isAvailable, ...(priceId ? { stripePriceId: priceId } : {}) };
    if (editing) {
      update.mutate(
        // Cleared on edit: sent as null so the stored id goes.
        { id: editing.id, changes: { ...fields, stripePriceId: priceId || null } },
        {
          onSuccess: () => {
            toast.success('Premium slug updated');
            onDone();
          },
          onError: (error) => toast.error('Error updating premium slug', problemOf(error)),
        },
      );
      return;
    }
    create.mutate(
      { slug: cleanSlug, ...fields },
      {
        onSuccess: (created) => {
          toast.success('Premium slug created', `/s/${created.slug} is in the catalogue.`);
          onDone();
        },
        onError: (error) => toast.error('Error creating premium slug', problemOf(error)),
      },
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Slug"
          description="1-20 characters: letters, numbers, hyphens, and underscores; stored in lower case."
          value={slug}
          disabled={editing !== null}
          onChange={(event) => setSlug(event.currentTarget.value)}
          data-autofocus
        />
        <CategoryTierPrice
          category={category}
          tier={tier}
          dollars={dollars}
          onCategory={setCategory}
          onTier={setTier}
          onDollars={setDollars}
        />
        <TextInput
          label="Stripe price id (optional)"
          value={stripePriceId}
          onChange={(event) => setStripePriceId(event.currentTarget.value)}
        />
        <Switch
          label="Available"
          checked={isAvailable}
          onChange={(e) => setAvailable(e.currentTarget.checked)}
        />
        <DialogActions onCancel={onDone} type="submit" loading={create.isPending || update.isPending}>
          {editing ? 'Save' : 'Add Slug'}
        </DialogActions>
      </Stack>
    </form>
  );
}

const pause = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Bulk add: one slug per line, each created with the chosen category, price and tier, as available. */
export function BulkAddDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Bulk Add Premium Slugs" centered>
      <BulkAddForm onDone={onClose} />
    </Modal>
  );
}

function BulkAddForm({ onDone }: { onDone: () => void }) {
  const refresh = useRefreshPremiumSlugs();
  const [text, setText] = useState('');
  const [category, setCategory] = useState<PremiumCategory>('common-words');
  const [tier, setTier] = useState<PremiumTier>('standard');
  const [dollars, setDollars] = useState(DEFAULT_DOLLARS);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const closed = useRef(false);
  useEffect(
    () => () => {
      closed.current = true;
    },
    [],
  );

  const run = async () => {
    const slugs = slugsOfLines(text);
    if (slugs.length === 0) return toast.error('No slugs provided', 'Please enter at least one slug.');
    const price = checkedPrice(dollars);
    if (price === null) return;
    setProgress({ done: 0, total: slugs.length });
    const failures: string[] = [];
    for (const [index, slug] of slugs.entries()) {
      if (closed.current) break;
      if (index > 0) await pause(bulkCreateSpacingMs);
      try {
        await createPremiumSlug({ slug: slug.toLowerCase(), category, tier, price, isAvailable: true });
      } catch (error) {
        failures.push(`${slug}: ${problemOf(error)}`);
      }
      setProgress({ done: index + 1, total: slugs.length });
    }
    await refresh();
    const created = slugs.length - failures.length;
    if (failures.length > 0) toast.error('Error creating premium slug', failures.join('; '));
    else toast.success(`${created} premium slugs created`);
    setProgress(null);
    if (failures.length === 0) onDone();
  };

  return (
    <Stack gap="sm">
      <Textarea
        label="Slugs"
        description="One slug per line; blank lines are skipped."
        autosize
        minRows={5}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        disabled={progress !== null}
      />
      <CategoryTierPrice
        category={category}
        tier={tier}
        dollars={dollars}
        onCategory={setCategory}
        onTier={setTier}
        onDollars={setDollars}
      />
      {progress && (
        <Stack gap={4}>
          <Text size="sm" aria-live="polite">
            Adding {progress.done} of {progress.total}…
          </Text>
          <Progress value={(progress.done / progress.total) * 100} aria-label="Bulk add progress" />
        </Stack>
      )}
      <DialogActions onCancel={onDone} onClick={run} loading={progress !== null}>
        Add Slugs
      </DialogActions>
    </Stack>
  );
}

/** A yes-or-no question before something that cannot be undone (delete, seed). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        <Text>{message}</Text>
        <DialogActions onCancel={onClose} color="red" onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </DialogActions>
      </Stack>
    </Modal>
  );
}
