import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { MarketplaceSlugDetail, PremiumPaymentIntent } from '@sniplink/contracts';
import { pages } from '@sniplink/contracts/pages';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { loginHref } from '../accounts/useSignedInUser';
import { ApiError } from '../api/http';
import { PageTitle } from '../components/PageTitle';
import {
  confirmLocalPayment,
  marketplaceSlugQueryOptions,
  marketplaceSlugsQueryKey,
  paymentIntentQueryOptions,
} from './api';
import { paymentSetupProblem } from './checkoutFacts';
import { dollars } from './premiumFacts';

const page = pages['/premium/checkout/{slugId}'];

/** Stripe's Payment Element, in a chunk of its own: only a Stripe-configured site loads it. */
const StripeCardForm = lazy(() => import('./StripeCardForm'));

/** The local provider's form says so on every screen, as its plans checkout does. */
const TEST_PAYMENT_NOTICE = 'Test payment: no money moves';

/**
 * /premium/checkout/{slugId}: the slug (the route's loader has it; not found is the route's own page),
 * unavailable (already purchased), or payment setup (the hold and its payment), then the card form,
 * pending while confirming; on success, the success page.
 */
export function PremiumCheckoutPage({ slugId }: { slugId: string }) {
  const { data: slug } = useSuspenseQuery(marketplaceSlugQueryOptions(slugId));
  return (
    <CheckoutFrame>
      {slug.available ? (
        <Payment slug={slug} />
      ) : (
        <Gone title="Slug Unavailable" text="This premium slug has already been purchased." />
      )}
    </CheckoutFrame>
  );
}

/** The checkout of a slug the server does not know. */
export function PremiumSlugNotFound() {
  return (
    <CheckoutFrame>
      <Gone title="Premium Slug Not Found" text="There is no premium slug at this address." />
    </CheckoutFrame>
  );
}

function CheckoutFrame({ children }: { children: React.ReactNode }) {
  return (
    <Container size="sm" py="xl">
      <PageTitle title={page.title} />
      <Stack gap="lg">
        <Title order={1}>{page.title}</Title>
        {children}
      </Stack>
    </Container>
  );
}

function Gone({ title, text }: { title: string; text: string }) {
  return (
    <Alert color="gray" title={title}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{text}</Text>
        <Anchor component={Link} to="/marketplace">
          Back to the marketplace
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** Payment setup (the hold and its payment), then the card form. */
function Payment({ slug }: { slug: MarketplaceSlugDetail }) {
  const intent = useQuery(paymentIntentQueryOptions(slug.id));
  if (intent.isPending) {
    return (
      <Center py="xl">
        <Stack align="center" gap="xs">
          <Loader aria-label="Setting up payment" />
          <Text c="dimmed">Setting up payment…</Text>
        </Stack>
      </Center>
    );
  }
  if (intent.isError) {
    const problem = paymentSetupProblem(intent.error);
    return (
      <Alert color="red" title={problem.title}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{problem.message}</Text>
          {problem.ownedCount !== undefined && (
            <Text size="sm">You own or hold {problem.ownedCount} of 3 premium slugs.</Text>
          )}
          {problem.title === 'Pro Subscription Required' && (
            <Button component={Link} to="/subscribe" variant="light">
              Upgrade to Pro
            </Button>
          )}
          {problem.signedOut && (
            <Button component="a" href={loginHref(`/premium/checkout/${slug.id}`)}>
              Login to Purchase
            </Button>
          )}
          <Anchor component={Link} to="/marketplace">
            Back to the marketplace
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  return <CardForm slug={slug} intent={intent.data} />;
}

function CardForm({ slug, intent }: { slug: MarketplaceSlugDetail; intent: PremiumPaymentIntent }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<'pay' | 'decline' | 'cancel' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (intent.provider === 'stripe') {
    if (!intent.publishableKey) {
      return (
        <Alert color="red" title="Payment Setup Failed">
          Card payments are not set up on this site yet. Please contact support to buy this premium slug.
        </Alert>
      );
    }
    return (
      <Card withBorder radius="md" padding="xl">
        <Stack gap="md">
          <SlugAndPrice slug={slug.slug} amount={intent.amount} />
          <Suspense fallback={<Loader aria-label="Loading the card form" />}>
            <StripeCardForm intent={intent} publishableKey={intent.publishableKey} />
          </Suspense>
        </Stack>
      </Card>
    );
  }

  const act = async (action: 'pay' | 'decline' | 'cancel') => {
    setPending(action);
    setFailure(null);
    try {
      const outcome = await confirmLocalPayment(intent, action);
      void queryClient.invalidateQueries({ queryKey: marketplaceSlugsQueryKey });
      if (outcome.status === 'succeeded') {
        await navigate({
          to: '/premium/success',
          search: { slug: intent.slug, payment_intent: intent.paymentIntentId },
        });
        return;
      }
      if (outcome.status === 'canceled') {
        await navigate({ to: '/marketplace' });
        return;
      }
      setFailure(outcome.error ?? 'The payment was not completed.');
    } catch (error) {
      setFailure(error instanceof ApiError ? (error.serverMessage ?? error.message) : 'The payment failed.');
    } finally {
      setPending(null);
    }
  };

  return (
    <Card withBorder radius="md" padding="xl">
      <Stack gap="md">
        <Text
          fw={600}
          size="sm"
          px="sm"
          py={4}
          style={{ alignSelf: 'flex-start', borderRadius: 999, background: '#fff3bf', color: '#5c3c00' }}
        >
          {TEST_PAYMENT_NOTICE}
        </Text>
        <SlugAndPrice slug={slug.slug} amount={intent.amount} />
        <Text size="sm" c="dimmed">
          Held for you until {new Date(intent.holdExpiresAt).toLocaleTimeString()}. A one-time payment; the
          slug is yours to keep.
        </Text>
        {failure && (
          <Alert color="red" title="Payment Failed">
            {failure}
          </Alert>
        )}
        {pending && <Text size="sm">Confirming payment…</Text>}
        <Group>
          <Button onClick={() => void act('pay')} loading={pending === 'pay'} disabled={pending !== null}>
            Pay
          </Button>
          <Button
            variant="light"
            color="red"
            onClick={() => void act('decline')}
            loading={pending === 'decline'}
            disabled={pending !== null}
          >
            Pay with a declined card
          </Button>
          <Button
            variant="subtle"
            onClick={() => void act('cancel')}
            loading={pending === 'cancel'}
            disabled={pending !== null}
          >
            Cancel
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** What is being bought, and for how much. */
function SlugAndPrice({ slug, amount }: { slug: string; amount: number }) {
  return (
    <Group justify="space-between">
      <Text fw={600} size="lg">
        {slug}
      </Text>
      <Text fw={600} size="lg">
        {dollars(amount)}
      </Text>
    </Group>
  );
}
