import { Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import type { Link } from '@sniplink/contracts';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { useUpdateLink } from './api';
import { LinkOptions } from './LinkOptionsFields';
import { moderationProblem, PENDING_APPROVAL_NOTE, updateLinkProblem } from './linkErrors';
import {
  controlValidation,
  editControls,
  type LinkFormValues,
  linkFieldProblem,
  linkFormOf,
  targetOf,
} from './linkForm';
import { ShortCodeField } from './ShortCodeField';
import { typedUrlProblem } from './typedUrl';
import { useShortCodeCheck, useShortCodeRule } from './useShortCodeCheck';
import { hasUtm } from './utm';

const firstFields = new Set(['originalUrl', 'title', 'shortCode']);

interface EditLinkDialogProps {
  link: Link;
  opened: boolean;
  onClose: () => void;
}

export function EditLinkDialog({ link, opened, onClose }: EditLinkDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Edit Link" centered size="lg">
      {/* The modal drops its content when closed, so every opening starts from the link as it is. */}
      <EditLinkForm link={link} onDone={onClose} />
    </Modal>
  );
}

/** Whether the link has anything "More options" holds, which the dialog then shows unfolded. */
const hasOptions = (link: Link, values: LinkFormValues) =>
  hasUtm(values.utm) ||
  link.hasPassword ||
  link.expiresAt !== null ||
  link.maxClicks !== null ||
  link.fallbackUrl !== null ||
  link.paused ||
  link.tags.length > 0 ||
  link.rules.length > 0;

/** Problems with a field are said on it; a toast only for what has none. */
function EditLinkForm({ link, onDone }: { link: Link; onDone: () => void }) {
  const codeRule = useShortCodeRule();
  const initialValues = linkFormOf(link);
  const [moreOptions, toggleMoreOptions] = useDisclosure(hasOptions(link, initialValues));
  const form = useForm<LinkFormValues>({
    initialValues,
    validate: {
      originalUrl: typedUrlProblem,
      shortCode: (code) =>
        code.trim() === link.shortCode || codeRule.fits(code.trim()) ? null : codeRule.text,
      ...controlValidation,
    },
  });
  const code = form.values.shortCode.trim();
  const check = useShortCodeCheck(code, link.shortCode);
  const updateLink = useUpdateLink();
  const codeChanged = check.state !== 'unchanged';

  const submit = form.onSubmit(
    (values) =>
      updateLink.mutate(
        {
          id: link.id,
          title: values.title.trim() || null,
          originalUrl: targetOf(values),
          ...(codeChanged ? { shortCode: code } : {}),
          ...editControls(values, link),
        },
        {
          onSuccess: (updated) => {
            toast.success('Link updated successfully!', updated.pendingApproval ? PENDING_APPROVAL_NOTE : '');
            onDone();
          },
          onError: (error) => {
            const onField = linkFieldProblem(error);
            const refused = moderationProblem(error);
            if (refused) toast.error(refused.title, refused.message);
            if (onField) {
              form.setFieldError(onField.field, onField.message);
              if (!firstFields.has(onField.field)) toggleMoreOptions.open();
              return;
            }
            const problem = updateLinkProblem(error);
            toast.error(problem.title, problem.message);
          },
        },
      ),
    (errors) => {
      if (Object.keys(errors).some((field) => !firstFields.has(field))) toggleMoreOptions.open();
    },
  );

  return (
    <form aria-label="Edit link" noValidate onSubmit={submit}>
      <Stack gap="md">
        <TextInput label="Title" placeholder="Optional" {...form.getInputProps('title')} />
        <TextInput
          label="Original URL"
          type="url"
          inputMode="url"
          required
          {...form.getInputProps('originalUrl')}
        />
        <ShortCodeField
          label="Short code"
          value={form.values.shortCode}
          onChange={(event) => form.setFieldValue('shortCode', event.currentTarget.value)}
          check={check}
          error={form.errors.shortCode}
        />
        <LinkOptions
          form={form}
          idPrefix={`edit-${link.id}`}
          opened={moreOptions}
          onToggle={toggleMoreOptions.toggle}
          hasPassword={link.hasPassword}
        />
        <DialogActions
          onCancel={onDone}
          type="submit"
          loading={updateLink.isPending}
          disabled={codeChanged && check.state !== 'valid'}
        >
          Save
        </DialogActions>
      </Stack>
    </form>
  );
}
