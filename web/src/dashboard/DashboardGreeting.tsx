import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { User } from '@sniplink/contracts';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { isPro, planLabelOf } from '../accounts/plan';
import { displayNameOf } from '../components/userDisplay';
import { greetingFor } from './greeting';
import { useDashboardTotals } from './totals';
import { useDashboardPlace } from './useDashboardPlace';

const seenKey = (userId: string) => `sniplink:dashboard-seen:${userId}`;

function hasSeenDashboard(userId: string): boolean {
  try {
    return window.localStorage.getItem(seenKey(userId)) !== null;
  } catch {
    return true;
  }
}

/** True on the user's very first dashboard visit in this browser; remembered from then on. */
function useFirstVisit(userId: string): boolean {
  const [firstVisit] = useState(() => !hasSeenDashboard(userId));
  useEffect(() => {
    try {
      window.localStorage.setItem(seenKey(userId), new Date().toISOString());
    } catch {
      // Private mode without storage: the welcome simply shows again next time.
    }
  }, [userId]);
  return firstVisit;
}

export function DashboardGreeting({ user }: { user: User }) {
  const { totalLinks } = useDashboardTotals();
  const { go } = useDashboardPlace();
  const firstVisit = useFirstVisit(user.id);
  const greeting = greetingFor({ userId: user.id, name: displayNameOf(user), firstVisit }, new Date());
  const showUpgrade = !isPro(user) && totalLinks >= 1;

  return (
    <Group justify="space-between" align="flex-start" gap="md">
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {greeting}
          </Title>
          <Badge color={isPro(user) ? 'violet' : 'gray'} variant="light" tt="none" size="lg">
            {planLabelOf(user)}
          </Badge>
        </Group>
        <Text c="dimmed">Create, share and track your short links.</Text>
      </Stack>
      <Group gap="sm">
        {showUpgrade && (
          <Button component={Link} to="/subscribe">
            Upgrade
          </Button>
        )}
        <Button variant="default" onClick={() => go({ support: 'open' })}>
          Support
        </Button>
      </Group>
    </Group>
  );
}
