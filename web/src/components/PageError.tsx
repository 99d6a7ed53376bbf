import { Anchor, Button, Container, Group, Text, Title } from '@mantine/core';
import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router';
import { PageTitle } from './PageTitle';

const errorTitle = 'Something went wrong';

/**
 * What a page that failed to load or render shows, inside the top bar: no stack trace, a way to try again
 * (the page's data and code are asked for again) and a way home.
 */
export function PageError({ reset }: ErrorComponentProps) {
  const router = useRouter();
  const tryAgain = () => {
    reset();
    void router.invalidate();
  };
  return (
    <Container size="lg" py="xl" role="alert">
      <PageTitle title={errorTitle} />
      <Title order={1}>{errorTitle}</Title>
      <Text c="dimmed" mt="xs" mb="md">
        This page could not be shown. It may be a passing network problem: please try again.
      </Text>
      <Group gap="lg">
        <Button onClick={tryAgain}>Try again</Button>
        <Anchor component={Link} to="/">
          Go to the home page
        </Anchor>
      </Group>
    </Container>
  );
}
