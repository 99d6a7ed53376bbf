import { Alert, Tabs } from '@mantine/core';
import { pages } from '@sniplink/contracts/pages';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { AuthPageLayout } from '../accounts/AuthPageLayout';
import { CreateAccountForm } from '../accounts/CreateAccountForm';
import { createAccountTab } from '../accounts/loginLinks';
import { SignInForm } from '../accounts/SignInForm';
import { PageTitle } from '../components/PageTitle';

/** Why a sign-in with the OpenID provider came back here (its callback adds `?error=`). */
const providerErrors = ['oidc', 'unverified', 'verify-first', 'suspended'] as const;
type ProviderError = (typeof providerErrors)[number];

/** How the e-mail confirmation link went, when it was opened signed out (`?emailVerified=`). */
const confirmations = ['1', 'expired'] as const;
type Confirmation = (typeof confirmations)[number];

interface LoginSearch {
  /** Where to go once signed in: a path of this site only ("/x", never "//host" or "https://…"). */
  returnTo?: string;
  error?: ProviderError;
  emailVerified?: Confirmation;
  /** `create`: open on the Create account tab ("Start Free"); else on Sign in. */
  tab?: typeof createAccountTab;
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
    emailVerified: confirmations.find((outcome) => outcome === String(search.emailVerified)),
    tab: search.tab === createAccountTab ? createAccountTab : undefined,
  }),
  component: LoginPage,
});

const providerErrorText: Record<ProviderError, string> = {
  oidc: 'Sign-in with your provider failed, please try again.',
  unverified: 'Your e-mail address is not verified with your provider.',
  'verify-first':
    'An account with this e-mail address already exists. Sign in with its password, then confirm your ' +
    'address with the link we e-mailed you (your profile can send it again); after that you can also ' +
    'sign in with your provider.',
  suspended: 'This account is suspended.',
};

const confirmationAlert: Record<Confirmation, { color: string; text: string }> = {
  '1': { color: 'green', text: 'Your e-mail address is confirmed. Sign in to continue.' },
  expired: {
    color: 'red',
    text: 'This confirmation link has expired or was already used. Sign in to have a new one sent from your profile.',
  },
};

type Tab = 'sign-in' | 'create-account';

function LoginPage() {
  const { returnTo, error, emailVerified, tab: openOn } = Route.useSearch();
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>(openOn === createAccountTab ? 'create-account' : 'sign-in');
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
      {emailVerified && (
        <Alert color={confirmationAlert[emailVerified].color} variant="light" mb="lg">
          {confirmationAlert[emailVerified].text}
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
