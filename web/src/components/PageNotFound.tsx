import { Anchor, Container, Text, Title } from '@mantine/core';
import { notFoundPage } from '@sniplink/contracts/pages';
import { Link } from '@tanstack/react-router';
import { PageTitle } from './PageTitle';

export function PageNotFound() {
  return (
    <Container size="lg" py="xl">
      <PageTitle title={notFoundPage.title} />
      <Title order={1}>{notFoundPage.title}</Title>
      <Text c="dimmed" mt="xs" mb="md">
        There is no page at this address.
      </Text>
      <Anchor component={Link} to="/">
        Go to the home page
      </Anchor>
    </Container>
  );
}
