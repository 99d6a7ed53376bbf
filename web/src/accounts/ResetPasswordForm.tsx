import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { ApiError } from '../api/http';
import { useResetPassword } from './api';
import { describeAuthError } from './authErrors';
import { FormErrorAlert } from './FormErrorAlert';
import { NewPasswordField, PasswordField } from './PasswordField';

/** Chooses a new password with the token from the e-mailed link; no token reads as an invalid link. */
export function ResetPasswordForm({ token }: { token: string | undefined }) {
  const resetPassword = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const confirmationRef = useRef<HTMLInputElement>(null);
  const { error } = resetPassword;

  if (resetPassword.isSuccess) {
    return (
      <Alert color="teal" variant="light">
        Your password has been changed.{' '}
        <Anchor component={Link} to="/login" fz="inherit">
          Sign in with your new password
        </Anchor>
      </Alert>
    );
  }
  if (!token || (error instanceof ApiError && error.code === 'INVALID_TOKEN')) {
    return (
      <Alert color="red" variant="light">
        This reset link is invalid or has expired.{' '}
        <Anchor component={Link} to="/forgot-password" fz="inherit">
          Request a new link
        </Anchor>
      </Alert>
    );
  }

  const problem = error ? describeAuthError(error) : undefined;
  return (
    <form
      aria-label="Choose a new password"
      onSubmit={(event) => {
        event.preventDefault();
        if (password !== confirmation) {
          setMismatch(true);
          confirmationRef.current?.focus();
          return;
        }
        resetPassword.mutate({ token, password });
      }}
    >
      <Stack gap="md">
        {problem && <FormErrorAlert>{problem.message}</FormErrorAlert>}
        <NewPasswordField
          label="New password"
          value={password}
          onChange={setPassword}
          error={problem?.field === 'password'}
        />
        <PasswordField
          ref={confirmationRef}
          label="Confirm new password"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => {
            setConfirmation(event.currentTarget.value);
            setMismatch(false);
          }}
          error={mismatch && 'The passwords do not match'}
          errorProps={{ role: 'alert' }}
        />
        <Button type="submit" loading={resetPassword.isPending} fullWidth>
          Change password
        </Button>
      </Stack>
    </form>
  );
}
