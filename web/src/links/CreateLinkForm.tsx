import { Button, Card, Group, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { announceSignedOutAndLogIn } from '../accounts/useSignedInUser';
import { toast } from '../components/toast';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { useCreateLink } from './api';
import { LongUrlInput } from './LongUrlInput';
import { createLinkProblem } from './linkErrors';
import { urlToShorten } from './typedUrl';

interface CreateLinkFormProps {
  /** From the user's allowance: at 0 the form is disabled. */
  linksRemaining: number;
}

export function CreateLinkForm({ linksRemaining }: CreateLinkFormProps) {
  const { go } = useDashboardPlace();
  const [url, setUrl] = useState('');
  const createLink = useCreateLink();
  const noneLeft = linksRemaining === 0;

  const submit = () => {
    const originalUrl = urlToShorten(url);
    if (!originalUrl) return;
    createLink.mutate(originalUrl, {
      onSuccess: (link) => {
        setUrl('');
        toast.success('Link created successfully!', link.shortUrl);
        // The new link is the first of the list: its first page shows it.
        go({ page: undefined }, { replace: true });
      },
      onError: (error) => {
        const problem = createLinkProblem(error);
        if (problem.signedOut) announceSignedOutAndLogIn();
        else toast.error(problem.title, problem.message);
      },
    });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="lg" mb="sm">
        Create New Short Link
      </Title>
      <form
        aria-label="Create New Short Link"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Group align="flex-end" gap="sm" wrap="wrap">
          <LongUrlInput value={url} onChange={setUrl} style={{ flex: '1 1 16rem' }} />
          <Button type="submit" loading={createLink.isPending} disabled={noneLeft}>
            Shorten
          </Button>
        </Group>
        {noneLeft && (
          <Text size="sm" c="dimmed" mt="xs">
            You have no links left on your plan.
          </Text>
        )}
      </form>
    </Card>
  );
}
