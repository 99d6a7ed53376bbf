import { Alert, Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { webhooksQueryOptions } from './api';

/** On the home: webhooks disabled after 24 hours of failed deliveries. Nothing at all when there is none. */
export function DisabledWebhooksNotice() {
  const { data: hooks = [] } = useQuery(webhooksQueryOptions());
  const disabled = hooks.filter((hook) => hook.status === 'disabled');
  if (disabled.length === 0) return null;
  return (
    <Alert
      color="red"
      variant="light"
      title={disabled.length === 1 ? 'A webhook was disabled' : 'Webhooks were disabled'}
      icon={<IconAlertTriangle aria-hidden />}
      role="status"
    >
      <Text size="sm">
        Deliveries to {disabled.map((hook) => hook.url).join(', ')} failed for 24 hours, so nothing more is
        sent.{' '}
        <Anchor component={Link} to="/profile" size="sm">
          Check your webhooks in Profile
        </Anchor>
        .
      </Text>
    </Alert>
  );
}
