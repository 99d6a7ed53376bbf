import { Anchor, Box, Button, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { type Ref, useState } from 'react';
import { useSignIn } from './api';
import { describeAuthError } from './authErrors';
import { type FieldErrors, hasProblems, isAuthField, signInProblems } from './authFields';
import { EmailField } from './EmailField';
import { FormErrorAlert } from './FormErrorAlert';
import { PasswordField } from './PasswordField';

interface SignInFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onSignedIn: () => void;
  passwordRef?: Ref<HTMLInputElement>;
}

/**
 * Problems with a field are said on it, the form's own checks and the server's alike; the alert is for
 * what belongs to no field (wrong credentials, too many attempts, no connection).
 */
export function SignInForm({ email, onEmailChange, onSignedIn, passwordRef }: SignInFormProps) {
  const signIn = useSignIn();
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const problem = signIn.error ? describeAuthError(signIn.error) : undefined;
  const serverField = isAuthField(problem?.field) ? problem.field : undefined;
  const errors: FieldErrors = serverField ? { [serverField]: problem?.message, ...fieldErrors } : fieldErrors;
  /** Editing a field takes its problem away, the server's too. */
  const clear = (field: keyof FieldErrors) => {
    setFieldErrors(({ [field]: _, ...rest }) => rest);
    if (serverField === field) signIn.reset();
  };

  return (
    <form
      aria-label="Sign in"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const problems = signInProblems({ email, password });
        setFieldErrors(problems);
        if (hasProblems(problems)) return;
        signIn.mutate({ email: email.trim(), password }, { onSuccess: onSignedIn });
      }}
    >
      <Stack gap="md">
        {problem && !serverField && <FormErrorAlert>{problem.message}</FormErrorAlert>}
        <EmailField
          autoComplete="username"
          value={email}
          onChange={(value) => {
            clear('email');
            onEmailChange(value);
          }}
          error={errors.email}
        />
        <Box>
          <PasswordField
            ref={passwordRef}
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => {
              clear('password');
              setPassword(event.currentTarget.value);
            }}
            error={errors.password}
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
