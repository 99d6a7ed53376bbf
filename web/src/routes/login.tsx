import { Alert, Tabs } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { AuthPageLayout } from '../auth/AuthPageLayout';
import { CreateAccountForm } from '../auth/CreateAccountForm';
import { SignInForm } from '../auth/SignInForm';
import { PageTitle } from '../components/PageTitle';

/** Why a sign-in with the OpenID provider came back here (its callback adds `?error=`). */
const providerErrors = ['oidc', 'unverified', 'suspended'] as const;
type ProviderError = (typeof providerErrors)[number];

interface LoginSearch {
  /** Where to go once signed in: a path of this site only ("/x", never "//host" or "https://…"). */
  returnTo?: string;
  error?: ProviderError;
}

function isSitePath(value: unknown): value is string {
  return (
    typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
  );
}

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({
    returnTo: isSitePath(search.returnTo) ? search.returnTo : undefined,
    error: providerErrors.find((error) => error === search.error),
  }),
  component: LoginPage,
});

const providerErrorText: Record<ProviderError, string> = {
  oidc: 'Sign-in with your provider failed, please try again.',
  unverified: 'Your e-mail address is not verified with your provider.',
  suspended: 'This account is suspended.',
};

type Tab = 'sign-in' | 'create-account';

function LoginPage() {
  const { returnTo, error } = Route.useSearch();
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>('sign-in');
  // One address for both forms: it is usually typed once, on whichever tab turns out to be the right one.
  const [email, setEmail] = useState('');
  const signInPassword = useRef<HTMLInputElement>(null);

  const goOn = () => void navigate({ href: returnTo ?? '/', replace: true });
  const signInInstead = () => {
    flushSync(() => setTab('sign-in'));
    signInPassword.current?.focus();
  };

  return (
    <AuthPageLayout
      heading="Welcome to Sniplink"
      intro="Sign in, or create a free account to track your links."
    >
      <PageTitle title={pages['/login'].title} />
      {error && (
        <Alert color="red" variant="light" mb="lg">
          {providerErrorText[error]}
        </Alert>
      )}
      <Tabs value={tab} onChange={(value) => setTab(value === 'create-account' ? value : 'sign-in')}>
        <Tabs.List grow mb="lg">
          <Tabs.Tab value="sign-in">Sign in</Tabs.Tab>
          <Tabs.Tab value="create-account">Create account</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="sign-in">
          <SignInForm email={email} onEmailChange={setEmail} onSignedIn={goOn} passwordRef={signInPassword} />
        </Tabs.Panel>
        <Tabs.Panel value="create-account">
          <CreateAccountForm
            email={email}
            onEmailChange={setEmail}
            onSignedIn={goOn}
            onSignInInstead={signInInstead}
          />
        </Tabs.Panel>
      </Tabs>
    </AuthPageLayout>
  );
}
