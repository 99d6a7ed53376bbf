import { TextInput, type TextInputProps } from '@mantine/core';

/** The account's e-mail address, as typed: required, and the browser's address keyboard and autofill. */
export function EmailField({
  value,
  onChange,
  ...input
}: Omit<TextInputProps, 'value' | 'onChange'> & { value: string; onChange(email: string): void }) {
  return (
    <TextInput
      label="E-mail"
      type="email"
      autoComplete="email"
      required
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...input}
    />
  );
}
