import { Anchor, Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { useCreateAccount } from './api';
import { describeAuthError } from './authErrors';
import { type FieldErrors, hasProblems, isAuthField, signUpProblems } from './authFields';
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

/** As the sign-in form: problems on their fields, the alert only for what belongs to none. */
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
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const { error } = createAccount;
  const problem = error ? describeAuthError(error) : undefined;
  const serverField = isAuthField(problem?.field) ? problem.field : undefined;
  const errors: FieldErrors = serverField ? { [serverField]: problem?.message, ...fieldErrors } : fieldErrors;
  const emailTaken = error instanceof ApiError && error.code === 'EMAIL_TAKEN';
  /** Editing a field takes its problem away, the server's too. */
  const clear = (field: keyof FieldErrors) => {
    setFieldErrors(({ [field]: _, ...rest }) => rest);
    if (serverField === field) createAccount.reset();
  };

  return (
    <form
      aria-label="Create account"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const problems = signUpProblems({ email, password });
        setFieldErrors(problems);
        if (hasProblems(problems)) return;
        createAccount.mutate(
          {
            email: email.trim(),
            password,
            firstName: firstName.trim() || undefined,
            lastName: lastName.trim() || undefined,
          },
          { onSuccess: onSignedIn },
        );
      }}
    >
      <Stack gap="md">
        {problem && !serverField && <FormErrorAlert>{problem.message}</FormErrorAlert>}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="First name (optional)"
            autoComplete="given-name"
            value={firstName}
            onChange={(event) => {
              clear('firstName');
              setFirstName(event.currentTarget.value);
            }}
            error={errors.firstName}
          />
          <TextInput
            label="Last name (optional)"
            autoComplete="family-name"
            value={lastName}
            onChange={(event) => {
              clear('lastName');
              setLastName(event.currentTarget.value);
            }}
            error={errors.lastName}
          />
        </SimpleGrid>
        <EmailField
          value={email}
          onChange={(value) => {
            clear('email');
            onEmailChange(value);
          }}
          error={
            emailTaken && !fieldErrors.email ? (
              <>
                {errors.email}{' '}
                <Anchor component="button" type="button" fz="inherit" onClick={onSignInInstead}>
                  Sign in instead
                </Anchor>
              </>
            ) : (
              errors.email
            )
          }
        />
        <NewPasswordField
          label="Password"
          value={password}
          onChange={(value) => {
            clear('password');
            setPassword(value);
          }}
          error={errors.password}
        />
        <Button type="submit" loading={createAccount.isPending} fullWidth>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
