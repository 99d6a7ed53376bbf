import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { currentUserQueryKey } from '../../accounts/api';
import { useSignedInUser } from '../../accounts/useSignedInUser';
import { type PaymentReturnSearch, paymentReturnSearch } from '../../billing/paymentReturn';
import { showPaymentNotice, usePaymentReturn } from '../../billing/usePaymentReturn';
import { PageError } from '../../components/PageError';
import { PagePending } from '../../components/PagePending';
import { toast } from '../../components/toast';
import { DashboardPage } from '../../dashboard/DashboardPage';
import { type DashboardSearch, dashboardSearchSchema } from '../../dashboard/places';
import { useLinkLimitTexts } from '../../links/limitsApi';

/**
 * The card payment provider may come back with ?payment=success&session_id=… (the
 * success toast once the server confirms the payment); the
 * e-mail confirmation link with ?emailVerified=1 (or `expired`).
 */
interface HomeSearch extends PaymentReturnSearch, DashboardSearch {
  emailVerified?: '1' | 'expired';
}

export const Route = createFileRoute('/_authenticated/home')({
  validateSearch: (search: Record<string, unknown>): HomeSearch => ({
    ...paymentReturnSearch(search),
    emailVerified:
      String(search.emailVerified) === '1' ? '1' : search.emailVerified === 'expired' ? 'expired' : undefined,
    ...dashboardSearchSchema.parse(search),
  }),
  // The dashboard's places open dialogs and panels whose data the loader brings.
  loaderDeps: ({ search: { support, ticket, analytics, range } }) => ({ support, ticket, analytics, range }),
  // The loader stays in the app's first chunk: it fetches the dashboard's code with its data.
  loader: async ({ context: { queryClient }, deps }) => {
    const { loadDashboard } = await import('../../dashboard/DashboardPage');
    await loadDashboard(queryClient, deps);
  },
  pendingComponent: PagePending,
  errorComponent: PageError,
  component: HomePage,
});

function HomePage() {
  const search = Route.useSearch();
  const { emailVerified } = search;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSignedInUser();
  const limits = useLinkLimitTexts();

  usePaymentReturn('/home', search, (outcome) => {
    if (outcome === 'confirmed') {
      toast.success('Payment Successful!', `Welcome to Sniplink Pro: ${limits.pro} are yours.`);
    } else if (outcome !== 'canceled') showPaymentNotice(outcome);
  });

  useEffect(() => {
    if (!emailVerified) return;
    if (emailVerified === '1')
      toast.success('E-mail address confirmed', 'Thank you: your address is confirmed.');
    else
      toast.error(
        'Link expired',
        'This confirmation link has expired or was already used. Your profile can send a new one.',
      );
    void navigate({ to: '/home', search: {}, replace: true });
    void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
  }, [emailVerified, navigate, queryClient]);

  return <DashboardPage user={user} />;
}
