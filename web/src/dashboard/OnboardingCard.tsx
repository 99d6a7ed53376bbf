import { Button, Card, CloseButton, Group, Text, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';

/** A browser-local flag: the card stays away once dismissed. */
const dismissedKey = 'sniplink:onboarding-card-dismissed';

/** Shown while the user has used none of their allowance, until dismissed. */
export function OnboardingCard({ usedCount }: { usedCount: number }) {
  const [dismissed, setDismissed] = useLocalStorage({
    key: dismissedKey,
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  if (dismissed || usedCount !== 0) return null;

  return (
    <Card withBorder radius="md" padding="lg" bg="var(--mantine-primary-color-light)">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Title order={2} fz="lg">
          Get started with Sniplink
        </Title>
        <CloseButton aria-label="Dismiss getting started" onClick={() => setDismissed(true)} />
      </Group>
      <Text mt="xs">
        Paste a long URL below to make your first short link, or take a one-minute tour first.
      </Text>
      <Group mt="md">
        <Button component={Link} to="/onboarding" variant="filled">
          Take the tour
        </Button>
      </Group>
    </Card>
  );
}
