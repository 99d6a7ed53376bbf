import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useRequestPasswordReset } from './api';
import { describeAuthError } from './authErrors';
import { FormErrorAlert } from './FormErrorAlert';

export function ForgotPasswordForm() {
  const requestReset = useRequestPasswordReset();
  const [email, setEmail] = useState('');

  if (requestReset.isSuccess) {
    return (
      <Alert color="teal" variant="light">
        If an account exists for that address, we've sent a link to reset the password. It is valid for one
        hour.
      </Alert>
    );
  }

  const problem = requestReset.error ? describeAuthError(requestReset.error) : undefined;
  return (
    <form
      aria-label="Reset password"
      onSubmit={(event) => {
        event.preventDefault();
        requestReset.mutate({ email });
      }}
    >
      <Stack gap="md">
        {problem && <FormErrorAlert>{problem.message}</FormErrorAlert>}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={problem?.field === 'email'}
        />
        <Button type="submit" loading={requestReset.isPending} fullWidth>
          Send reset link
        </Button>
      </Stack>
    </form>
  );
}
