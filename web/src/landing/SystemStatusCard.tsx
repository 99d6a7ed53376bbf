import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { livenessQueryOptions, readinessQueryOptions } from '../api/health';

export function SystemStatusCard() {
  const liveness = useQuery(livenessQueryOptions());
  const readiness = useQuery(readinessQueryOptions());

  return (
    <Card component="section" aria-label="System status" withBorder radius="md" maw={420}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          System status
        </Title>
        {readiness.data && (
          <Badge variant="light" color={readiness.data.status === 'ok' ? 'green' : 'orange'}>
            {readiness.data.status}
          </Badge>
        )}
      </Group>
      <Stack gap="xs">
        <StatusCheck name="server" ok={liveness.isPending ? undefined : liveness.data?.status === 'ok'} />
        {readiness.isPending && <StatusCheck name="readiness" ok={undefined} />}
        {readiness.isError && (
          <Text size="sm" c="red">
            Readiness unknown ({readiness.error.message})
          </Text>
        )}
        {readiness.data &&
          Object.entries(readiness.data.checks).map(([name, check]) => (
            <StatusCheck key={name} name={name} ok={check.ok} />
          ))}
      </Stack>
    </Card>
  );
}

/** One named check; `ok` is undefined while it is still being asked. */
function StatusCheck({ name, ok }: { name: string; ok: boolean | undefined }) {
  const [label, color] = ok === undefined ? ['checking', 'gray'] : ok ? ['ok', 'green'] : ['failing', 'red'];
  return (
    <Group justify="space-between">
      <Text size="sm">{name}</Text>
      <Badge variant="light" color={color}>
        {label}
      </Badge>
    </Group>
  );
}
