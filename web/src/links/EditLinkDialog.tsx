import { Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { Link } from '@sniplink/contracts';
import { CUSTOM_CODE_RULE } from '@sniplink/contracts/short-codes';
import { useState } from 'react';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { useUpdateLink } from './api';
import { updateLinkProblem } from './linkErrors';
import { isWellFormedShortCode, type ShortCodeCheck, useShortCodeCheck } from './useShortCodeCheck';

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

function EditLinkForm({ link, onDone }: { link: Link; onDone: () => void }) {
  const [title, setTitle] = useState(link.title ?? '');
  const [originalUrl, setOriginalUrl] = useState(link.originalUrl);
  const [shortCode, setShortCode] = useState(link.shortCode);
  const code = shortCode.trim();
  const check = useShortCodeCheck(code, link.shortCode);
  const updateLink = useUpdateLink();
  const codeChanged = check.state !== 'unchanged';

  const submit = () => {
    if (codeChanged && !isWellFormedShortCode(code)) {
      toast.error(
        'Invalid Short Code',
        'Short code must be 3-20 characters using letters, numbers, hyphens, or underscores only.',
      );
      return;
    }
    updateLink.mutate(
      {
        id: link.id,
        title: title.trim() || null,
        originalUrl: originalUrl.trim(),
        ...(codeChanged ? { shortCode: code } : {}),
      },
      {
        onSuccess: () => {
          toast.success('Link updated successfully!');
          onDone();
        },
        onError: (error) => {
          const problem = updateLinkProblem(error);
          toast.error(problem.title, problem.message);
        },
      },
    );
  };

  return (
    <form
      aria-label="Edit link"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <TextInput
          label="Title"
          placeholder="Optional"
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
        />
        <TextInput
          label="Original URL"
          type="url"
          required
          value={originalUrl}
          onChange={(event) => setOriginalUrl(event.currentTarget.value)}
        />
        <TextInput
          label="Short code"
          description={CUSTOM_CODE_RULE}
          value={shortCode}
          onChange={(event) => setShortCode(event.currentTarget.value)}
          error={check.state === 'invalid' ? check.message : undefined}
          rightSection={check.state === 'checking' ? <Loader size="xs" /> : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <ShortCodeStatus check={check} />
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

/** Says aloud what the field's colours show: checking, or available (errors are on the field itself). */
function ShortCodeStatus({ check }: { check: ShortCodeCheck }) {
  const text =
    check.state === 'checking' ? 'Checking availability...' : check.state === 'valid' ? check.message : '';
  return (
    <Text size="sm" c={check.state === 'valid' ? 'green.8' : 'dimmed'} aria-live="polite" mt={-8}>
      {text}
    </Text>
  );
}
