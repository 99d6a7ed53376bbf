import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { adminRoute } from '../admin/places';
import { streamMatchesQueryOptions } from './api';
import { CorrelatedEventsDialog } from './CorrelatedEventsDialog';
import { useEventsNavigate } from './navigate';
import { StreamHistory } from './StreamHistory';

const ProjectionsPanel = lazy(() =>
  import('../projections-health/ProjectionsPanel').then((module) => ({
    default: module.ProjectionsPanel,
  })),
);

/**
 * The console's Events tab: sections one above the other, each on its own: the read models' health and
 * rebuilds, then any entity's history.
 */
export function EventsTab() {
  return (
    <Stack gap="xl">
      <Suspense fallback={<Loader role="status" aria-label="Loading the read models" size="sm" />}>
        <ProjectionsPanel />
      </Suspense>
      <EntityHistory />
    </Stack>
  );
}

/** Find an entity, read its events as a timeline, open the state right after any of them. */
function EntityHistory() {
  const { q, stream, from, event, correlation } = adminRoute.useSearch();
  const query = q?.trim() ?? '';
  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Entity history
        </Title>
        <Text size="sm" c="dimmed">
          Every change to a user, a link, a premium slug or a ticket, as the event log recorded it: who did
          it, when, and what the entity looked like right after.
        </Text>
      </div>
      <StreamSearch initial={query} />
      {query && (
        <Suspense fallback={<Loader role="status" aria-label="Searching" size="sm" />}>
          <StreamMatches q={query} selected={stream} />
        </Suspense>
      )}
      {stream && (
        <Suspense fallback={<Loader role="status" aria-label="Loading the history" />}>
          <StreamHistory streamId={stream} from={from ?? 0} selected={event} />
        </Suspense>
      )}
      <CorrelatedEventsDialog correlationId={correlation} />
    </Stack>
  );
}

function StreamSearch({ initial }: { initial: string }) {
  const go = useEventsNavigate();
  const [text, setText] = useState(initial);
  const submit = (submitted: FormEvent) => {
    submitted.preventDefault();
    const q = text.trim();
    go({ q: q || undefined, stream: undefined, from: undefined, event: undefined });
  };
  return (
    <form onSubmit={submit}>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Find an entity"
          description="A user’s e-mail address, a link’s code, a premium slug, a ticket id or a stream id"
          value={text}
          onChange={(changed) => setText(changed.currentTarget.value)}
          w={{ base: '100%', sm: 420 }}
        />
        <Button type="submit">Find</Button>
      </Group>
    </form>
  );
}

function StreamMatches({ q, selected }: { q: string; selected: string | undefined }) {
  const { data } = useSuspenseQuery(streamMatchesQueryOptions(q));
  const go = useEventsNavigate();
  if (data.matches.length === 0) {
    return (
      <Alert color="gray" title="Nothing found" role="status">
        No user, link, premium slug or ticket matches “{q}”. Try a whole e-mail address, a link’s code or an
        id.
      </Alert>
    );
  }
  return (
    <Stack
      component="ul"
      gap={4}
      aria-label="Matching entities"
      style={{ listStyle: 'none', margin: 0, padding: 0 }}
    >
      {data.matches.map((match) => (
        <li key={match.streamId}>
          <UnstyledButton
            aria-current={match.streamId === selected ? 'true' : undefined}
            onClick={() => go({ stream: match.streamId, from: undefined, event: undefined })}
            p="xs"
            w="100%"
            style={{
              borderRadius: 'var(--mantine-radius-sm)',
              background: match.streamId === selected ? 'var(--mantine-color-blue-light)' : undefined,
            }}
          >
            <Group gap="sm" wrap="nowrap">
              <Badge variant="light">{match.kind}</Badge>
              <Text fw={500}>{match.label}</Text>
              <Text size="xs" c="dimmed" ff="monospace" truncate>
                {match.streamId}
              </Text>
            </Group>
          </UnstyledButton>
        </li>
      ))}
    </Stack>
  );
}
