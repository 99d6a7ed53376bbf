import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { createAccountHref } from '../accounts/loginLinks';
import { planFeatures, planPrices } from '../billing/plans';
import { useLinkLimitTexts } from '../links/limitsApi';

/** Sniplink next to the enterprise link platforms it replaces for small teams. */
const comparison: { feature: string; sniplink: string; enterprise: string }[] = [
  { feature: 'Price', sniplink: '$0, or $2/month', enterprise: 'Often $30 to $200+ a month' },
  {
    feature: 'Click analytics',
    sniplink: 'Device, referrer, country',
    enterprise: 'Yes, often on higher tiers',
  },
  { feature: 'Set-up', sniplink: 'One minute, no card', enterprise: 'Trials, sales calls, contracts' },
  { feature: 'CSV export', sniplink: 'Included', enterprise: 'Often a paid add-on' },
  { feature: 'Visitor IP addresses', sniplink: 'Never stored', enterprise: 'Varies' },
  { feature: 'Run it yourself', sniplink: 'Yes, self-hostable', enterprise: 'No' },
];

// A plain table: Mantine's Table brings its ScrollArea (and that its floating-ui) into the landing page's
// JavaScript even when no scroll container is used.
const border = '1px solid var(--mantine-color-default-border)';
const tableStyle = { borderCollapse: 'collapse', border } as const;
const cellStyle = {
  padding: 'var(--mantine-spacing-sm) var(--mantine-spacing-xs)',
  borderBottom: border,
  textAlign: 'left',
  verticalAlign: 'middle',
} as const;
const stripeStyle = { background: 'var(--mantine-color-gray-0)' } as const;

export function Comparison() {
  return (
    <Container component="section" size="md" py={56} aria-labelledby="comparison-title">
      <Stack gap="xl">
        <Title order={2} id="comparison-title" ta="center">
          The tracking you need, without the enterprise bill
        </Title>
        {/* Fits a 320 px phone with smaller text; would scroll sideways rather than widen the page. */}
        <Box style={{ overflowX: 'auto' }}>
          <Box component="table" w="100%" fz={{ base: 'sm', sm: 'md' }} style={tableStyle}>
            <thead>
              <tr>
                <th scope="col" style={cellStyle}>
                  <VisuallyHidden>Feature</VisuallyHidden>
                </th>
                <th scope="col" style={cellStyle}>
                  Sniplink
                </th>
                <th scope="col" style={cellStyle}>
                  Enterprise link tools
                </th>
              </tr>
            </thead>
            <tbody>
              {comparison.map((row, index) => (
                <tr key={row.feature} style={index % 2 === 0 ? stripeStyle : undefined}>
                  <th scope="row" style={cellStyle}>
                    {row.feature}
                  </th>
                  <td style={{ ...cellStyle, fontWeight: 600 }}>{row.sniplink}</td>
                  <td style={cellStyle}>{row.enterprise}</td>
                </tr>
              ))}
            </tbody>
          </Box>
        </Box>
      </Stack>
    </Container>
  );
}

/** The plans (anchor #pricing). */
export function Pricing() {
  const limits = useLinkLimitTexts();
  return (
    <Container component="section" id="pricing" size="md" py={56} aria-labelledby="pricing-title">
      <Stack gap="xl">
        <Stack gap="xs" ta="center">
          <Title order={2} id="pricing-title">
            Simple pricing
          </Title>
          <Text c="dimmed">No credit card required. Cancel anytime. Your data stays yours.</Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Card withBorder radius="md" padding="xl">
            <Stack gap="md" h="100%">
              <Title order={3}>Free</Title>
              <Text>
                <Text span fz={40} fw={800}>
                  $0
                </Text>
              </Text>
              <Text fw={600}>{limits.free}</Text>
              <PlanFeatures />
              <Button component="a" href={createAccountHref} variant="default" mt="auto" fullWidth>
                Start Free
              </Button>
            </Stack>
          </Card>
          <Card
            withBorder
            radius="md"
            padding="xl"
            style={{ borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 }}
          >
            <Stack gap="md" h="100%">
              <Group justify="space-between">
                <Title order={3}>Pro</Title>
                <Badge>Two months free yearly</Badge>
              </Group>
              <Text>
                <Text span fz={40} fw={800}>
                  {planPrices.monthly}
                </Text>{' '}
                <Text span c="dimmed">
                  /month
                </Text>
              </Text>
              <Text size="sm">
                or {planPrices.yearly}/year{' '}
                <Text span td="line-through" c="dimmed">
                  {planPrices.yearlyList}
                </Text>{' '}
                <Text span fw={700}>
                  saves {planPrices.yearlySaving}
                </Text>
              </Text>
              <Text fw={600}>{limits.pro}</Text>
              <PlanFeatures />
              <Button component={Link} to="/subscribe" mt="auto" fullWidth>
                Go Pro
              </Button>
            </Stack>
          </Card>
        </SimpleGrid>
      </Stack>
    </Container>
  );
}

function PlanFeatures() {
  return (
    <List spacing={4} size="sm">
      {planFeatures.map((feature) => (
        <List.Item key={feature}>{feature}</List.Item>
      ))}
    </List>
  );
}

/** The closing call to action above the footer. */
export function StartTrial() {
  const limits = useLinkLimitTexts();
  return (
    <Container component="section" size="sm" py={56} ta="center" aria-labelledby="start-title">
      <Stack gap="md" align="center">
        <Title order={2} id="start-title">
          Your next link could tell you something
        </Title>
        <Text c="dimmed">
          Free holds {limits.free}, for as long as you keep them. Upgrade only when you need more.
        </Text>
        <Button component="a" href={createAccountHref} size="lg">
          Start Free Trial
        </Button>
      </Stack>
    </Container>
  );
}

/** The landing page's sections after the demo: the comparison, the plans and the closing call. */
export function PricingSections() {
  return (
    <>
      <Comparison />
      <Box bg="var(--mantine-color-gray-0)">
        <Pricing />
      </Box>
      <StartTrial />
    </>
  );
}
