import { Alert, Button, Stack, Text } from '@mantine/core';
import type { PremiumPaymentIntent } from '@sniplink/contracts';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { dollars } from './premiumFacts';

/** Stripe.js, loaded from js.stripe.com once per publishable key (the CSP allows it when Stripe is set up). */
const loaded = new Map<string, Promise<Stripe | null>>();
const stripeFor = (publishableKey: string) => {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    loaded.set(publishableKey, stripe);
  }
  return stripe;
};

/**
 * With Stripe: its Payment Element for the slug's PaymentIntent, confirmed in the page (a redirect only
 * for payment methods that need one, which come back to /premium/success?slug=…&payment_intent=…).
 */
export default function StripeCardForm({
  intent,
  publishableKey,
}: {
  intent: PremiumPaymentIntent;
  publishableKey: string;
}) {
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret: intent.clientSecret }}>
      <ConfirmForm intent={intent} />
    </Elements>
  );
}

function ConfirmForm({ intent }: { intent: PremiumPaymentIntent }) {
  const stripe = useStripe();
  const elements = useElements();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const pay = async () => {
    if (!stripe || !elements) return;
    setPending(true);
    setFailure(null);
    const returnUrl = `${window.location.origin}/premium/success?slug=${encodeURIComponent(intent.slug)}`;
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: returnUrl },
      redirect: 'if_required',
    });
    setPending(false);
    if (result.error) {
      setFailure(result.error.message ?? 'The payment failed.');
      return;
    }
    await navigate({
      to: '/premium/success',
      search: { slug: intent.slug, payment_intent: result.paymentIntent.id },
    });
  };

  return (
    <Stack gap="md">
      <PaymentElement />
      {failure && (
        <Alert color="red" title="Payment Failed">
          {failure}
        </Alert>
      )}
      {pending && <Text size="sm">Confirming payment…</Text>}
      <Button onClick={() => void pay()} loading={pending} disabled={!stripe || !elements}>
        Pay {dollars(intent.amount)}
      </Button>
    </Stack>
  );
}
