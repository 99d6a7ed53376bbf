import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { PlanId } from '@sniplink/contracts';
import { pages } from '@sniplink/contracts/pages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { currentUserQueryKey, currentUserQueryOptions } from '../accounts/api';
import { announceSignedOutAndLogIn, loginHref } from '../accounts/useSignedInUser';
import { PageTitle } from '../components/PageTitle';
import { toast } from '../components/toast';
import { useLinkLimitTexts } from '../links/limitsApi';
import type { Problem } from '../links/linkErrors';
import { useCreateSubscription, usePurchasesDisabled } from './api';
import {
  type CheckoutOutcome,
  checkoutAnswerOutcome,
  checkoutFailureOutcome,
  checkoutRedirectDelayMs,
} from './checkout';
import type { PaymentReturnSearch } from './paymentReturn';
import { planFeatures, planPrices } from './plans';
import { showPaymentNotice, usePaymentReturn } from './usePaymentReturn';

const pageTitle = pages['/subscribe'].title;

/** /subscribe: Pro Monthly or Pro Yearly, and the screens after the checkout. */
export function SubscribePage({ search }: { search: PaymentReturnSearch }) {
  const [paid, setPaid] = useState(false);
  const { checking } = usePaymentReturn('/subscribe', search, (outcome) => {
    if (outcome === 'confirmed') setPaid(true);
    else if (outcome === 'canceled')
      toast.error('Payment Canceled', 'Your payment was canceled. You can try again anytime.');
    else showPaymentNotice(outcome);
  });

  return (
    <Container size="md" py="xl">
      <PageTitle title={pageTitle} />
      {paid ? <CheckoutSuccess /> : checking ? <ConfirmingPayment /> : <PlanChoice />}
    </Container>
  );
}

/** Back from the checkout, until the server has said whether the payment went through. */
function ConfirmingPayment() {
  return (
    <Group justify="center" gap="xs" py="xl" role="status">
      <Loader size="sm" />
      <Text>Confirming your payment...</Text>
    </Group>
  );
}

function CheckoutSuccess() {
  const limits = useLinkLimitTexts();
  return (
    <Card withBorder radius="md" padding="xl">
      <Stack align="center" gap="md" ta="center">
        <Title order={1}>Payment Successful!</Title>
        <Text>Welcome to Sniplink Pro: {limits.pro} are yours, with the same click analytics.</Text>
        <Button component={Link} to="/home" size="md">
          Go to Dashboard
        </Button>
      </Stack>
    </Card>
  );
}

/** Idle, creating (the chosen plan's button busy, the other disabled), then the checkout after 1 second. */
function PlanChoice() {
  const { data: user } = useQuery(currentUserQueryOptions());
  const queryClient = useQueryClient();
  const createSubscription = useCreateSubscription();
  const purchasesDisabled = usePurchasesDisabled();
  const limits = useLinkLimitTexts();
  const [redirecting, setRedirecting] = useState<PlanId>();
  const [failure, setFailure] = useState<Problem>();
  const redirectTimer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const settle = (plan: PlanId, outcome: CheckoutOutcome) => {
    switch (outcome.kind) {
      case 'redirect':
        setRedirecting(plan);
        redirectTimer.current = window.setTimeout(
          () => window.location.assign(outcome.url),
          checkoutRedirectDelayMs,
        );
        return;
      case 'already-subscribed':
        toast.success('Already Subscribed', outcome.message);
        void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
        return;
      case 'signed-out':
        announceSignedOutAndLogIn();
        return;
      case 'failed':
        setFailure(outcome.problem);
        toast.error(outcome.problem.title, outcome.problem.message);
        return;
      default:
        outcome satisfies never;
    }
  };

  const choose = (plan: PlanId) => {
    // A visitor signs in first, and comes back here to choose again.
    if (user === null) return window.location.assign(loginHref('/subscribe'));
    setFailure(undefined);
    createSubscription.mutate(
      { plan },
      {
        onSuccess: (answer) => settle(plan, checkoutAnswerOutcome(answer)),
        onError: (error) => settle(plan, checkoutFailureOutcome(error)),
      },
    );
  };
  const busyPlan =
    redirecting ?? (createSubscription.isPending ? createSubscription.variables.plan : undefined);
  const planButton = (plan: PlanId, label: string) =>
    purchasesDisabled ? null : (
      <Button
        mt="auto"
        fullWidth
        loading={busyPlan === plan}
        disabled={busyPlan !== undefined && busyPlan !== plan}
        onClick={() => choose(plan)}
      >
        {label}
      </Button>
    );

  return (
    <Stack gap="xl">
      <Stack gap="xs" ta="center">
        <Title order={1}>{pageTitle}</Title>
        <Text c="dimmed">Upgrade to Pro: {limits.pro}. Cancel anytime.</Text>
      </Stack>
      {purchasesDisabled && (
        <Alert color="blue" variant="light" title="Purchases are not enabled" role="status">
          {purchasesDisabled}
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" title={failure.title} role="alert">
          {failure.message}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <PlanCard name="Pro Monthly" price={planPrices.monthly} per="month">
          <Text size="sm" c="dimmed">
            Billed every month.
          </Text>
          {planButton('monthly', 'Choose Pro Monthly')}
        </PlanCard>
        <PlanCard
          name="Pro Yearly"
          price={planPrices.yearly}
          per="year"
          badge={`Save ${planPrices.yearlySaving}`}
        >
          <Text size="sm">
            <Text span td="line-through" c="dimmed">
              <VisuallyHidden>List price </VisuallyHidden>
              {planPrices.yearlyList}
            </Text>{' '}
            <Text span fw={700}>
              two months free
            </Text>
          </Text>
          {planButton('yearly', 'Choose Pro Yearly')}
        </PlanCard>
      </SimpleGrid>
      {redirecting && (
        <Group justify="center" gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm">Redirecting to checkout...</Text>
        </Group>
      )}
      <PlanComparison />
      <Anchor component={Link} to="/home" ta="center">
        Back to Dashboard
      </Anchor>
    </Stack>
  );
}

interface PlanCardProps {
  name: string;
  price: string;
  per: 'month' | 'year';
  badge?: string;
  children: ReactNode;
}

function PlanCard({ name, price, per, badge, children }: PlanCardProps) {
  const limits = useLinkLimitTexts();
  return (
    <Card withBorder radius="md" padding="xl" component="section" aria-label={name}>
      <Stack gap="md" h="100%">
        <Group justify="space-between">
          <Title order={2} fz="xl">
            {name}
          </Title>
          {badge && <Badge tt="none">{badge}</Badge>}
        </Group>
        <Text>
          <Text span fz={40} fw={800}>
            {price}
          </Text>{' '}
          <Text span c="dimmed">
            /{per}
          </Text>
        </Text>
        <Text fw={600}>{limits.pro}</Text>
        {children}
      </Stack>
    </Card>
  );
}

const included = (
  <>
    <span aria-hidden="true">✓</span>
    <VisuallyHidden>Included</VisuallyHidden>
  </>
);

/** Free next to Pro. */
function PlanComparison() {
  const limits = useLinkLimitTexts();
  const rows: { feature: string; free: ReactNode; pro: ReactNode }[] = [
    { feature: 'Links', free: limits.free, pro: limits.pro },
    { feature: 'Price', free: '$0', pro: `${planPrices.monthly}/month or ${planPrices.yearly}/year` },
    ...planFeatures.map((feature) => ({ feature, free: included, pro: included })),
  ];
  return (
    <Stack gap="sm" component="section" aria-labelledby="plan-comparison">
      <Title order={2} fz="xl" id="plan-comparison" ta="center">
        Free or Pro
      </Title>
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">
              <VisuallyHidden>Feature</VisuallyHidden>
            </Table.Th>
            <Table.Th scope="col">Free</Table.Th>
            <Table.Th scope="col">Pro</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.feature}>
              <Table.Th scope="row">{row.feature}</Table.Th>
              <Table.Td>{row.free}</Table.Td>
              <Table.Td>{row.pro}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
