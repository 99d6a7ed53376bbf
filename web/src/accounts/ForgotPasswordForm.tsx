import { Alert, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useRequestPasswordReset } from './api';
import { describeAuthError } from './authErrors';
import { EmailField } from './EmailField';
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
        <EmailField value={email} onChange={setEmail} error={problem?.field === 'email'} />
        <Button type="submit" loading={requestReset.isPending} fullWidth>
          Send reset link
        </Button>
      </Stack>
    </form>
  );
}
