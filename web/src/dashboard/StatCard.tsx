import { Card, Text } from '@mantine/core';

export function StatCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card withBorder padding="md" radius="md">
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value ?? '–'}
      </Text>
    </Card>
  );
}
