import { Card, Text } from '@mantine/core';
import { useId } from 'react';

/**
 * One figure under its label, with what it is counted against below it ("of 5 links at a time"); the card
 * is a group named by the label, so all are read together.
 */
export function StatCard({
  label,
  value,
  hint,
}: {
  label: string;
  value: number | string | undefined;
  hint?: string;
}) {
  const labelId = useId();
  return (
    <Card withBorder padding="md" radius="md" role="group" aria-labelledby={labelId}>
      <Text id={labelId} size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {typeof value === 'number' ? value.toLocaleString() : (value ?? '–')}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}
