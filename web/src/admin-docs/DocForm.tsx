import { Group, NumberInput, Select, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { type FormErrors, schemaResolver, useForm } from '@mantine/form';
import {
  ADMIN_DOC_CONTENT_MAX,
  ADMIN_DOC_TITLE_MAX,
  type AdminDoc,
  type AdminDocSection,
  adminDocBody,
  adminDocSections,
} from '@sniplink/contracts/admin-docs/api';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { problemOf, useAddAdminDoc, useUpdateAdminDoc } from './api';
import { DocContent } from './DocContent';
import { sectionLabels } from './sections';

const fieldLabels = { section: 'Section', title: 'Title', content: 'Content', sortOrder: 'Sort order' };
type Field = keyof typeof fieldLabels;
const isField = (name: string | undefined): name is Field => name !== undefined && name in fieldLabels;

const sectionOptions = adminDocSections.map((section) => ({ value: section, label: sectionLabels[section] }));

/** The request's own schema checks the form, so the dialog and the API refuse the same docs. */
const checkDoc = schemaResolver(adminDocBody, { sync: true });

/** A rule's words ("is required") after the field's label: "Title is required". */
const onFields = (errors: FormErrors): FormErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([name, problem]) => [
      name,
      isField(name) ? `${fieldLabels[name]} ${problem}` : problem,
    ]),
  );

interface DocValues {
  section: AdminDocSection;
  title: string;
  content: string;
  sortOrder: number | string;
}

/**
 * Add (no `doc`; in the section the tab is filtered by, if any) or edit a doc: section, title, sort order
 * and markdown content, with a preview of how the list will show it. Problems are said on their field.
 */
export function DocForm({
  doc,
  section,
  onDone,
}: {
  doc?: AdminDoc;
  section?: AdminDocSection | undefined;
  onDone(): void;
}) {
  const editing = doc !== undefined;
  const form = useForm<DocValues>({
    initialValues: {
      section: doc?.section ?? section ?? 'users',
      title: doc?.title ?? '',
      content: doc?.content ?? '',
      sortOrder: doc?.sortOrder ?? 0,
    },
    validate: (values) => onFields(checkDoc(values)),
  });
  const add = useAddAdminDoc();
  const update = useUpdateAdminDoc();
  // A problem with the content is said under it: the preview makes way for the text.
  const [view, setView] = useState<string | null>('write');
  const showProblem = (field: Field, problem: string) => {
    form.setFieldError(field, problem);
    if (field === 'content') setView('write');
  };

  const save = (values: DocValues) => {
    const body = { ...values, sortOrder: Number(values.sortOrder) };
    const done = {
      onSuccess: () => {
        toast.success(editing ? 'Doc updated' : 'Doc added');
        onDone();
      },
      onError: (error: unknown) => {
        const field = error instanceof ApiError ? error.field : undefined;
        if (isField(field)) {
          const problem = problemOf(error).replace(new RegExp(`^${field} `), '');
          showProblem(field, `${fieldLabels[field]} ${problem}`);
          return;
        }
        toast.error(editing ? 'Failed to update doc' : 'Failed to add doc', problemOf(error));
      },
    };
    if (doc) update.mutate({ id: doc.id, ...body }, done);
    else add.mutate(body, done);
  };
  const submit = form.onSubmit(save, (errors) => {
    if (errors.content) setView('write');
  });

  return (
    <form aria-label={editing ? 'Edit doc' : 'Add doc'} noValidate onSubmit={submit}>
      <Stack gap="md">
        <TextInput label="Title" required maxLength={ADMIN_DOC_TITLE_MAX} {...form.getInputProps('title')} />
        <Group gap="md" align="flex-start">
          <Select
            label="Section"
            required
            data={sectionOptions}
            allowDeselect={false}
            w={220}
            {...form.getInputProps('section')}
          />
          <NumberInput
            label="Sort order"
            description="Smallest first"
            allowDecimal={false}
            min={0}
            w={160}
            {...form.getInputProps('sortOrder')}
          />
        </Group>
        <Tabs value={view} onChange={setView}>
          <Tabs.List>
            <Tabs.Tab value="write">Write</Tabs.Tab>
            <Tabs.Tab value="preview">Preview</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="write" pt="sm">
            <Textarea
              label="Content"
              description="Markdown: # a heading, - a list item, **bold**, [a link](https://example.com)"
              required
              autosize
              minRows={8}
              maxRows={20}
              maxLength={ADMIN_DOC_CONTENT_MAX}
              {...form.getInputProps('content')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="preview" pt="sm">
            {form.values.content.trim() ? (
              <DocContent source={form.values.content} />
            ) : (
              <Text c="dimmed">Nothing to preview yet.</Text>
            )}
          </Tabs.Panel>
        </Tabs>
        <DialogActions onCancel={onDone} type="submit" loading={add.isPending || update.isPending}>
          {editing ? 'Save' : 'Add'}
        </DialogActions>
      </Stack>
    </form>
  );
}
