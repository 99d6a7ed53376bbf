import { Anchor, Container, Flex, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { brandName } from '../components/PageTitle';

/** Sections of the landing page itself. */
const sectionLinks = [
  ['#pricing', 'Pricing'],
  ['#demo', 'Demo'],
] as const;

/** The site's information pages. */
const pageLinks = [
  ['/help', 'Help'],
  ['/privacy', 'Privacy'],
  ['/terms', 'Terms'],
  ['/about', 'About'],
  ['/contact', 'Contact'],
] as const;

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
          {sectionLinks.map(([section, label]) => (
            <Anchor key={section} href={section} size="sm" c="dimmed">
              {label}
            </Anchor>
          ))}
          {pageLinks.map(([to, label]) => (
            <Anchor key={to} component={Link} to={to} size="sm" c="dimmed">
              {label}
            </Anchor>
          ))}
        </Group>
      </Flex>
    </Container>
  );
}
