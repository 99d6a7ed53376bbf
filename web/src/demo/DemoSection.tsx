import { Card, Container, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';

// The form (Mantine's inputs, the demo's calls to the server and its result) is its own chunk: the
// section sits far below the first screen, so the landing page shows before the form's code arrives, and
// the card keeps the form's height meanwhile.
const DemoForm = lazy(() => import('./DemoForm').then((module) => ({ default: module.DemoForm })));

/** Height of the form's row (label and field, the buttons beside them) while its code loads. */
export const formHeight = 60;

/** "Try Sniplink Free": a visitor shortens a URL without an account. */
export function DemoSection() {
  return (
    <Container component="section" id="demo" size="sm" py={64} aria-labelledby="demo-title">
      <Stack gap="lg">
        <Stack gap="xs" ta="center">
          <Title order={2} id="demo-title">
            Try Sniplink Free
          </Title>
          <Text c="dimmed">
            Paste a long link and get a short one you can share right away. No account needed.
          </Text>
        </Stack>
        <Card withBorder radius="md" padding="lg" shadow="sm">
          <Suspense fallback={<div style={{ minHeight: formHeight }} />}>
            <DemoForm />
          </Suspense>
        </Card>
      </Stack>
    </Container>
  );
}
