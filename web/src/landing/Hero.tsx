import { Stack, Text, Title } from '@mantine/core';

export function Hero({ headline }: { headline: string }) {
  return (
    <Stack gap="xs">
      <Title order={1}>{headline}</Title>
      <Text size="lg" c="dimmed">
        Simple link tracking for local businesses and creators.
      </Text>
    </Stack>
  );
}
