import { Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Link } from '@sniplink/contracts';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { useUpdateLink } from './api';
import { fieldProblemOf, moderationProblem, PENDING_APPROVAL_NOTE, updateLinkProblem } from './linkErrors';
import { ShortCodeField } from './ShortCodeField';
import { typedUrlProblem, urlToSend } from './typedUrl';
import { useShortCodeCheck, useShortCodeRule } from './useShortCodeCheck';

const fields = ['originalUrl', 'title', 'shortCode'] as const;

interface EditLinkDialogProps {
  link: Link;
  opened: boolean;
  onClose: () => void;
}

export function EditLinkDialog({ link, opened, onClose }: EditLinkDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Edit Link" centered>
      {/* The modal drops its content when closed, so every opening starts from the link as it is. */}
      <EditLinkForm link={link} onDone={onClose} />
    </Modal>
  );
}

/** Problems with a field are said on it; a toast only for what has none. */
function EditLinkForm({ link, onDone }: { link: Link; onDone: () => void }) {
  const codeRule = useShortCodeRule();
  const form = useForm({
    initialValues: { title: link.title ?? '', originalUrl: link.originalUrl, shortCode: link.shortCode },
    validate: {
      originalUrl: typedUrlProblem,
      shortCode: (code) =>
        code.trim() === link.shortCode || codeRule.fits(code.trim()) ? null : codeRule.text,
    },
  });
  const code = form.values.shortCode.trim();
  const check = useShortCodeCheck(code, link.shortCode);
  const updateLink = useUpdateLink();
  const codeChanged = check.state !== 'unchanged';

  const submit = form.onSubmit((values) =>
    updateLink.mutate(
      {
        id: link.id,
        title: values.title.trim() || null,
        originalUrl: urlToSend(values.originalUrl),
        ...(codeChanged ? { shortCode: code } : {}),
      },
      {
        onSuccess: (updated) => {
          toast.success('Link updated successfully!', updated.pendingApproval ? PENDING_APPROVAL_NOTE : '');
          onDone();
        },
        onError: (error) => {
          const onField = fieldProblemOf(error, fields);
          const refused = moderationProblem(error);
          if (refused) toast.error(refused.title, refused.message);
          if (onField) {
            form.setFieldError(onField.field, onField.message);
            return;
          }
          const problem = updateLinkProblem(error);
          toast.error(problem.title, problem.message);
        },
      },
    ),
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
