import { Badge, Button, Group, Modal, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { type AdminDoc, type AdminDocSection, adminDocSections } from '@sniplink/contracts/admin-docs/api';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminRoute } from '../admin/places';
import { DialogActions } from '../components/DialogActions';
import { readableDate } from '../components/dates';
import { toast } from '../components/toast';
import { adminDocsQueryOptions, problemOf, useDeleteAdminDoc, useSeedAdminDocs } from './api';
import { DocContent } from './DocContent';
import { DocForm } from './DocForm';
import { sectionLabels } from './sections';

const sectionOptions = adminDocSections.map((section) => ({ value: section, label: sectionLabels[section] }));

const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
/** "Nov 28, 2:03 PM" in the reader's locale; the year only when it is not this one. */
const updatedLabel = (iso: string) =>
  `${readableDate(iso, { month: 'short' })}, ${timeOfDay.format(new Date(iso))}`;

/** Who changed a doc last, as the console names admins elsewhere. */
const writerLabel = (doc: AdminDoc) =>
  doc.lastUpdatedBy ?? (doc.lastUpdatedById === 'system' ? 'System' : 'Erased admin');

/** Which dialog is open: adding, editing a doc, or confirming its deletion. */
type Dialog = { kind: 'add' } | { kind: 'edit'; doc: AdminDoc } | { kind: 'delete'; doc: AdminDoc };

/**
 * The console's Docs tab: internal documentation for admins, filtered by section (in the address),
 * sorted by sortOrder, with a starter set to seed, add, edit and delete.
 */
export function DocsTab() {
  const { section } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  // The console's loader has this section's docs.
  const { data: docs } = useSuspenseQuery(adminDocsQueryOptions(section));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const filter = (next: AdminDocSection | undefined) =>
    void navigate({ search: (previous) => ({ ...previous, section: next }), replace: true });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2} size="h3">
            Documentation
          </Title>
          <Text size="sm" c="dimmed">
            How each part of the console works, written by admins for admins.
          </Text>
        </div>
        <Group gap="sm">
          <SeedButton />
          <Button onClick={() => setDialog({ kind: 'add' })}>Add Doc</Button>
        </Group>
      </Group>
      <Select
        label="Section"
        placeholder="All sections"
        data={sectionOptions}
        value={section ?? null}
        clearable
        onChange={(value) => filter((value as AdminDocSection | null) ?? undefined)}
        w={220}
      />
      {docs.length === 0 ? (
        <NoDocs section={section} />
      ) : (
        docs.map((doc) => (
          <DocCard
            key={doc.id}
            doc={doc}
            onEdit={() => setDialog({ kind: 'edit', doc })}
            onDelete={() => setDialog({ kind: 'delete', doc })}
          />
        ))
      )}
      <Modal
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        onClose={close}
        title={dialog?.kind === 'edit' ? 'Edit Doc' : 'Add Doc'}
        size="xl"
        centered
      >
        {/* The modal drops its content when closed: every opening starts from the doc as it is. */}
        {dialog?.kind === 'edit' ? <DocForm doc={dialog.doc} onDone={close} /> : null}
        {dialog?.kind === 'add' ? <DocForm section={section} onDone={close} /> : null}
      </Modal>
      <DeleteDocDialog doc={dialog?.kind === 'delete' ? dialog.doc : undefined} onClose={close} />
    </Stack>
  );
}

/** Adds the starter docs; the server says how many, or that there was nothing to add. */
function SeedButton() {
  const seed = useSeedAdminDocs();
  return (
    <Button
      variant="default"
      loading={seed.isPending}
      onClick={() =>
        seed.mutate(undefined, {
          onSuccess: (result) => toast.success(result.message),
          onError: (error) => toast.error('Failed to seed documentation', problemOf(error)),
        })
      }
    >
      Seed Documentation
    </Button>
  );
}

function NoDocs({ section }: { section: AdminDocSection | undefined }) {
  return (
    <Text c="dimmed">
      {section
        ? `No docs in the ${sectionLabels[section]} section yet: Add Doc writes one.`
        : 'No docs yet: Seed Documentation adds a starter set for every section, or Add Doc writes your own.'}
    </Text>
  );
}

function DocCard({ doc, onEdit, onDelete }: { doc: AdminDoc; onEdit(): void; onDelete(): void }) {
  const titleId = `doc-${doc.id}`;
  return (
    <Paper component="article" withBorder p="md" radius="md" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="sm">
        <Group gap="sm" align="center">
          <Title order={3} size="h4" id={titleId}>
            {doc.title}
          </Title>
          <Badge variant="light">{sectionLabels[doc.section]}</Badge>
        </Group>
        <Group gap={4} wrap="nowrap">
          <Button size="xs" variant="subtle" aria-label={`Edit ${doc.title}`} onClick={onEdit}>
            Edit
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            aria-label={`Delete ${doc.title}`}
            onClick={onDelete}
          >
            Delete
          </Button>
        </Group>
      </Group>
      <DocContent source={doc.content} />
      <Text size="xs" c="dimmed" mt="sm">
        Updated {updatedLabel(doc.updatedAt)} by {writerLabel(doc)}
      </Text>
    </Paper>
  );
}

/** Delete asks for confirmation. */
function DeleteDocDialog({ doc, onClose }: { doc: AdminDoc | undefined; onClose(): void }) {
  const remove = useDeleteAdminDoc();
  const confirm = () => {
    if (!doc) return;
    remove.mutate(doc.id, {
      onSuccess: () => {
        toast.success('Doc deleted');
        onClose();
      },
      onError: (error) => toast.error('Failed to delete doc', problemOf(error)),
    });
  };
  return (
    <Modal opened={doc !== undefined} onClose={onClose} title="Delete Doc" centered>
      <Text>Are you sure you want to delete “{doc?.title}”?</Text>
      <DialogActions onCancel={onClose} mt="lg" color="red" onClick={confirm} loading={remove.isPending}>
        Delete
      </DialogActions>
    </Modal>
  );
}
