import { Box, Container, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The narrow, centred card every sign-in and password page sits in; readable from 320 px up. */
export function AuthPageLayout({
  heading,
  intro,
  children,
}: {
  heading: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container size={460} px="md" py={{ base: 'lg', sm: 48 }}>
      <Paper withBorder radius="md" shadow="xs" p={{ base: 'lg', sm: 'xl' }}>
        <Title order={1} size="h2">
          {heading}
        </Title>
        {intro && (
          <Text c="dimmed" mt={4}>
            {intro}
          </Text>
        )}
        <Box mt="lg">{children}</Box>
      </Paper>
    </Container>
  );
}
