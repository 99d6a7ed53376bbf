import { Button, Group, Stack, Textarea } from '@mantine/core';
import { TICKET_MESSAGE_MAX } from '@sniplink/contracts';
import { type FormEvent, useState } from 'react';

/**
 * A message to post to a ticket: the user's reply in the Support Center, the staff's in the console. A
 * blank message is not sent; the box empties once `onSend` says the message went (`sent`).
 */
export function ReplyBox({
  label,
  buttonLabel,
  pending,
  onSend,
}: {
  /** The field's label, and the form's name for assistive technology. */
  label: string;
  buttonLabel: string;
  pending: boolean;
  onSend(message: string, sent: () => void): void;
}) {
  const [message, setMessage] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (message.trim()) onSend(message, () => setMessage(''));
  };
  return (
    <form onSubmit={submit} aria-label={label}>
      <Stack gap="xs">
        <Textarea
          label={label}
          autosize
          minRows={2}
          maxLength={TICKET_MESSAGE_MAX}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={!message.trim()}>
            {buttonLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
