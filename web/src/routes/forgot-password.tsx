import { Anchor, Text } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, Link } from '@tanstack/react-router';
import { AuthPageLayout } from '../accounts/AuthPageLayout';
import { ForgotPasswordForm } from '../accounts/ForgotPasswordForm';
import { PageTitle } from '../components/PageTitle';

export const Route = createFileRoute('/forgot-password')({
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  return (
    <AuthPageLayout
      heading="Reset your password"
      intro="Enter the e-mail address of your account and we'll send you a link to choose a new password."
    >
      <PageTitle title={pages['/forgot-password'].title} />
      <ForgotPasswordForm />
      <Text size="sm" mt="lg">
        <Anchor component={Link} to="/login">
          Back to sign in
        </Anchor>
      </Text>
    </AuthPageLayout>
  );
}
