import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** A password input whose show/hide button is reachable by keyboard and says what it does. */
export function PasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': 'Show password' }}
      {...props}
    />
  );
}

/** A password being chosen: at least 8 characters, which the field says and the browser checks. */
export function NewPasswordField({
  value,
  onChange,
  ...input
}: Omit<PasswordInputProps, 'value' | 'onChange'> & { value: string; onChange(password: string): void }) {
  return (
    <PasswordField
      description="At least 8 characters"
      autoComplete="new-password"
      required
      minLength={8}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...input}
    />
  );
}
