import { Anchor, Container, Flex, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { brandName } from '../components/PageTitle';

export function LandingFooter() {
  return (
    <Container
      component="footer"
      size="lg"
      py="xl"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Flex direction={{ base: 'column', sm: 'row' }} justify="space-between" align="center" gap="md">
        <Text size="sm" c="dimmed">
          © {new Date().getFullYear()} {brandName}
        </Text>
        <Group component="nav" aria-label="Footer" justify="center" gap="md">
          <Anchor href="#pricing" size="sm" c="dimmed">
            Pricing
          </Anchor>
          <Anchor href="#demo" size="sm" c="dimmed">
            Demo
          </Anchor>
          <Anchor component={Link} to="/help" size="sm" c="dimmed">
            Help
          </Anchor>
          <Anchor component={Link} to="/privacy" size="sm" c="dimmed">
            Privacy
          </Anchor>
          <Anchor component={Link} to="/terms" size="sm" c="dimmed">
            Terms
          </Anchor>
          <Anchor component={Link} to="/about" size="sm" c="dimmed">
            About
          </Anchor>
          <Anchor component={Link} to="/contact" size="sm" c="dimmed">
            Contact
          </Anchor>
        </Group>
      </Flex>
    </Container>
  );
}
