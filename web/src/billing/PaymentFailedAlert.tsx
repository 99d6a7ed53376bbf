import { Alert, Group, Text } from '@mantine/core';
import type { Billing } from '@sniplink/contracts';
import { longDate } from './billingFacts';
import { ManageBillingButton } from './ManageBillingButton';

/** The last payment failed: Pro lasts until the period's end unless the card is updated in the portal. */
export function PaymentFailedAlert({ billing }: { billing: Billing }) {
  if (!billing.paymentFailed) return null;
  const until = billing.periodEnd ? longDate(billing.periodEnd) : 'the end of the period';
  return (
    <Alert color="red" variant="light" title="Payment failed: update your card">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          Pro stays on until {until}, then your account returns to Free. Your links keep working.
        </Text>
        {billing.canManage && (
          <ManageBillingButton color="red" variant="filled" size="xs">
            Update card
          </ManageBillingButton>
        )}
      </Group>
    </Alert>
  );
}
