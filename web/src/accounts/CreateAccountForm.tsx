import { Anchor, Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { useCreateAccount } from './api';
import { describeAuthError } from './authErrors';
import { EmailField } from './EmailField';
import { FormErrorAlert } from './FormErrorAlert';
import { NewPasswordField } from './PasswordField';

interface CreateAccountFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSignedIn: () => void;
  /** Shown when the address already has an account. */
  onSignInInstead: () => void;
}

export function CreateAccountForm({
  email,
  onEmailChange,
  onSignedIn,
  onSignInInstead,
}: CreateAccountFormProps) {
  const createAccount = useCreateAccount();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const { error } = createAccount;
  const problem = error ? describeAuthError(error) : undefined;
  const emailTaken = error instanceof ApiError && error.code === 'EMAIL_TAKEN';

  return (
    <form
      aria-label="Create account"
      onSubmit={(event) => {
        event.preventDefault();
        createAccount.mutate(
          {
            email,
            password,
            firstName: firstName.trim() || undefined,
            lastName: lastName.trim() || undefined,
          },
          { onSuccess: onSignedIn },
        );
      }}
    >
      <Stack gap="md">
        {problem && (
          <FormErrorAlert>
            {problem.message}{' '}
            {emailTaken && (
              <Anchor component="button" type="button" fz="inherit" onClick={onSignInInstead}>
                Sign in instead
              </Anchor>
            )}
          </FormErrorAlert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="First name (optional)"
            autoComplete="given-name"
            value={firstName}
            onChange={(event) => setFirstName(event.currentTarget.value)}
            error={problem?.field === 'firstName'}
          />
          <TextInput
            label="Last name (optional)"
            autoComplete="family-name"
            value={lastName}
            onChange={(event) => setLastName(event.currentTarget.value)}
            error={problem?.field === 'lastName'}
          />
        </SimpleGrid>
        <EmailField value={email} onChange={onEmailChange} error={problem?.field === 'email'} />
        <NewPasswordField
          label="Password"
          value={password}
          onChange={setPassword}
          error={problem?.field === 'password'}
        />
        <Button type="submit" loading={createAccount.isPending} fullWidth>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
