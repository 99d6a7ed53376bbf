import { Alert, Loader, Text, Timeline } from '@mantine/core';
import type { LinkHistoryActor } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../api/http';
import { readableDate } from '../components/dates';
import { linkHistoryQueryOptions } from './api';

/** Who made a change, as the owner reads it: an admin is the Support Team, never a person's name. */
const ACTOR_NAMES: Record<LinkHistoryActor, string> = {
  owner: 'You',
  'api-key': 'You, with an API key',
  support: 'Support Team',
  operator: 'The site operator (an import or a command-line tool)',
  system: 'Sniplink',
};

const timeOf = (when: string) =>
  `${readableDate(when, { month: 'short' })}, ${new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(when))}`;

/** A link's changes, newest first: what changed, who changed it and when. */
export function LinkHistory({ linkId }: { linkId: string }) {
  const history = useQuery(linkHistoryQueryOptions(linkId));
  if (history.isError)
    return (
      <Alert color="red" title="This history could not be loaded">
        {history.error instanceof ApiError && history.error.serverMessage
          ? history.error.serverMessage
          : 'Please try again in a moment.'}
      </Alert>
    );
  if (!history.data) return <Loader size="sm" aria-label="Loading the history" />;
  return (
    <Timeline bulletSize={12} lineWidth={2} aria-label="Changes, newest first">
      {history.data.map((entry) => (
        <Timeline.Item key={entry.id} title={entry.summary}>
          <Text size="xs" c="dimmed">
            {ACTOR_NAMES[entry.actor]} · <time dateTime={entry.occurredAt}>{timeOf(entry.occurredAt)}</time>
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
