import { pages } from '@sniplink/contracts/pages';
import { createFileRoute } from '@tanstack/react-router';
import { AuthPageLayout } from '../accounts/AuthPageLayout';
import { ResetPasswordForm } from '../accounts/ResetPasswordForm';
import { PageTitle } from '../components/PageTitle';

export const Route = createFileRoute('/reset-password')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => ({
    token: typeof search.token === 'string' && search.token !== '' ? search.token : undefined,
  }),
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const { token } = Route.useSearch();
  return (
    <AuthPageLayout heading="Choose a new password">
      <PageTitle title={pages['/reset-password'].title} />
      <ResetPasswordForm token={token} />
    </AuthPageLayout>
  );
}
