import { Button, type ButtonProps, Group, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The end of a dialog or form: Cancel, then its action (`children` the action's words; a submit button
 * with `type="submit"`, else a button with `onClick`).
 */
export function DialogActions({
  onCancel,
  mt,
  children,
  ...action
}: ButtonProps & {
  onCancel(): void;
  mt?: MantineSpacing;
  onClick?(): void;
  type?: 'submit' | 'button';
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end" gap="sm" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button {...action}>{children}</Button>
    </Group>
  );
}
