import { Badge, Group } from '@mantine/core';
import type { AdminUser } from '@sniplink/contracts';

/** Monthly, Yearly or Free (the plan that makes the user Pro), and Suspended while suspended. */
export function SubscriptionBadges({ user }: { user: AdminUser }) {
  const plan =
    user.subscriptionPlan === 'monthly' ? 'Monthly' : user.subscriptionPlan === 'yearly' ? 'Yearly' : 'Free';
  return (
    <Group gap={4}>
      <Badge color={user.subscriptionPlan ? 'blue' : 'gray'} variant="light">
        {plan}
      </Badge>
      {user.suspended && (
        <Badge color="red" variant="filled">
          Suspended
        </Badge>
      )}
    </Group>
  );
}

export const fullName = (user: Pick<AdminUser, 'firstName' | 'lastName'>) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ');

export const joined = (user: Pick<AdminUser, 'createdAt'>) => new Date(user.createdAt).toLocaleDateString();
