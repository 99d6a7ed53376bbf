import { Button, Group, Stack, Textarea } from '@mantine/core';
import { TICKET_MESSAGE_MAX } from '@sniplink/contracts';
import { type FormEvent, useState } from 'react';
import { toast } from '../components/toast';

/**
 * A message to post to a ticket: the user's reply in the Support Center, the staff's in the console. A
 * blank message is not sent; once `send` has sent it, a toast says so and the box empties; a failure is
 * a toast with `problem`'s words, and the message stays.
 */
export function ReplyBox({
  label,
  buttonLabel,
  pending,
  send,
  problem,
}: {
  /** The field's label, and the form's name for assistive technology. */
  label: string;
  buttonLabel: string;
  pending: boolean;
  send(message: string): Promise<unknown>;
  problem(error: unknown): string;
}) {
  const [message, setMessage] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) return;
    send(message).then(
      () => {
        toast.success('Message Sent');
        setMessage('');
      },
      (error: unknown) => toast.error('Error', problem(error)),
    );
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
