import { Card, Text } from '@mantine/core';
import { useId } from 'react';

/** One figure under its label; the card is a group named by the label, so both are read together. */
export function StatCard({ label, value }: { label: string; value: number | string | undefined }) {
  const labelId = useId();
  return (
    <Card withBorder padding="md" radius="md" role="group" aria-labelledby={labelId}>
      <Text id={labelId} size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value ?? '–'}
      </Text>
    </Card>
  );
}
