import { Alert, Anchor, Button, Card, Container, Stack, Table, Text, Title } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PageTitle } from '../components/PageTitle';
import { purchaseQueryOptions } from './api';
import { type PremiumSuccessSearch, purchaseShown } from './premiumFacts';

const page = pages['/premium/success'];

/**
 * /premium/success: the slug, the price paid, status Complete and the transaction
 * id. The query is read once, then cleared from the address (replacing the history entry).
 */
export function PremiumSuccessPage({ search }: { search: PremiumSuccessSearch }) {
  const navigate = useNavigate();
  const [returned] = useState(search);
  const carriesQuery = search.slug !== undefined || search.payment_intent !== undefined;
  useEffect(() => {
    if (carriesQuery) void navigate({ to: '/premium/success', search: {}, replace: true });
  }, [carriesQuery, navigate]);

  return (
    <Container size="sm" py="xl">
      <PageTitle title={page.title} />
      {returned.payment_intent ? (
        <Purchase paymentIntentId={returned.payment_intent} slug={returned.slug} />
      ) : (
        <Alert color="gray" title="No purchase to show">
          <Anchor component={Link} to="/marketplace">
            Browse premium slugs
          </Anchor>
        </Alert>
      )}
    </Container>
  );
}

/** The success page of a purchase the server does not know. */
export function PurchaseNotFound() {
  return (
    <Container size="sm" py="xl">
      <PageTitle title={page.title} />
      <Alert color="red" title="Purchase not found">
        We could not find this purchase. If you were charged, please contact support.
      </Alert>
    </Container>
  );
}

function Purchase({ paymentIntentId, slug }: { paymentIntentId: string; slug: string | undefined }) {
  // The route's loader has it; it is asked again while the payment is processing.
  const { data } = useSuspenseQuery(purchaseQueryOptions(paymentIntentId, slug));
  const shown = purchaseShown(data);
  return (
    <Card withBorder radius="md" padding="xl">
      <Stack align="center" gap="md" ta="center">
        <Title order={1}>{shown.title}</Title>
        <Text c="dimmed">{shown.message}</Text>
        <Table variant="vertical" withTableBorder maw={420}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th>Slug</Table.Th>
              <Table.Td>{data.slug}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Amount</Table.Th>
              <Table.Td>{shown.amount}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Status</Table.Th>
              <Table.Td>{shown.status}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Transaction ID</Table.Th>
              <Table.Td style={{ wordBreak: 'break-all' }}>{data.paymentIntentId}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Button component={Link} to="/home">
          Go to Dashboard
        </Button>
      </Stack>
    </Card>
  );
}
