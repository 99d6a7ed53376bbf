import { TextInput, type TextInputProps } from '@mantine/core';

/** The address to shorten: a URL field (a phone shows its URL keyboard), read as typed. */
export function LongUrlInput({
  value,
  onChange,
  ...input
}: Omit<TextInputProps, 'value' | 'onChange'> & { value: string; onChange(url: string): void }) {
  return (
    <TextInput
      label="Long URL"
      placeholder="https://example.com/a-very-long-address"
      type="url"
      inputMode="url"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      {...input}
    />
  );
}
