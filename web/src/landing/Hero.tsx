import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { createAccountHref } from '../accounts/loginLinks';
import { useLinkLimitTexts } from '../links/limitsApi';

export function Hero({ headline }: { headline: string }) {
  const limits = useLinkLimitTexts();
  return (
    <Container component="section" size="md" py={{ base: 48, sm: 88 }} ta="center">
      <Stack gap="lg" align="center">
        <Text fw={700} c="blue.8" size="sm" tt="uppercase">
          Free: {limits.free}. Pro: {limits.pro} for $2.
        </Text>
        <Title order={1} fz={{ base: 36, sm: 52 }} lh={1.1}>
          {headline}
        </Title>
        <Text size="xl" c="dimmed" maw={620}>
          Simple link tracking for local businesses and creators: short links you can share anywhere, and the
          clicks behind them, without an enterprise price tag.
        </Text>
        {/* Side by side from 576 px; one above the other, full width, on phones. */}
        <Group justify="center" gap="sm" w="100%">
          <Button component="a" href={createAccountHref} size="lg" w={{ base: '100%', xs: 'auto' }}>
            Start Free Today
          </Button>
          {/* A same-page anchor: the browser scrolls to the demo, also without JavaScript. */}
          <Button component="a" href="#demo" size="lg" variant="default" w={{ base: '100%', xs: 'auto' }}>
            Try Demo
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          No credit card required · Cancel anytime · Your data stays yours
        </Text>
      </Stack>
    </Container>
  );
}
