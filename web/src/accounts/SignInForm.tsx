import { Anchor, Box, Button, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { type Ref, useState } from 'react';
import { useSignIn } from './api';
import { describeAuthError } from './authErrors';
import { EmailField } from './EmailField';
import { FormErrorAlert } from './FormErrorAlert';
import { PasswordField } from './PasswordField';

interface SignInFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSignedIn: () => void;
  passwordRef?: Ref<HTMLInputElement>;
}

export function SignInForm({ email, onEmailChange, onSignedIn, passwordRef }: SignInFormProps) {
  const signIn = useSignIn();
  const [password, setPassword] = useState('');
  const problem = signIn.error ? describeAuthError(signIn.error) : undefined;

  return (
    <form
      aria-label="Sign in"
      onSubmit={(event) => {
        event.preventDefault();
        signIn.mutate({ email, password }, { onSuccess: onSignedIn });
      }}
    >
      <Stack gap="md">
        {problem && <FormErrorAlert>{problem.message}</FormErrorAlert>}
        <EmailField
          autoComplete="username"
          value={email}
          onChange={onEmailChange}
          error={problem?.field === 'email'}
        />
        <Box>
          <PasswordField
            ref={passwordRef}
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={problem?.field === 'password'}
          />
          <Anchor component={Link} to="/forgot-password" size="sm" display="inline-block" mt={6}>
            Forgot password?
          </Anchor>
        </Box>
        <Button type="submit" loading={signIn.isPending} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
