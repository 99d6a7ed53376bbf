import { Button, type ButtonProps } from '@mantine/core';
import { useOpenBillingPortal } from './api';

/** Opens the provider's billing portal: cancel at the period's end, change the card, invoices. */
export function ManageBillingButton({ children = 'Manage billing', ...props }: ButtonProps) {
  const portal = useOpenBillingPortal();
  return (
    <Button variant="default" {...props} loading={portal.opening} onClick={portal.open}>
      {children}
    </Button>
  );
}
