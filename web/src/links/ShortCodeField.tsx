import { Loader, Stack, Text, TextInput, type TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { type ShortCodeCheck, useShortCodeRule } from './useShortCodeCheck';

type ShortCodeFieldProps = Omit<TextInputProps, 'error' | 'rightSection'> & {
  check: ShortCodeCheck;
  /** A refusal of the server's for this field after a submit; the check's own message comes first. */
  error?: ReactNode;
};

/**
 * A custom short code as the create form and the edit dialog ask for it: the rule below the label, the
 * availability check on the field (checking, available, or why not), and said aloud.
 */
export function ShortCodeField({ check, error, ...input }: ShortCodeFieldProps) {
  const rule = useShortCodeRule();
  return (
    <Stack gap={4}>
      <TextInput
        description={rule.text}
        error={check.state === 'invalid' ? check.message : error}
        rightSection={check.state === 'checking' ? <Loader size="xs" /> : undefined}
        autoComplete="off"
        spellCheck={false}
        {...input}
      />
      <ShortCodeStatus check={check} />
    </Stack>
  );
}

/** Says aloud what the field's colours show: checking, or available (errors are on the field itself). */
function ShortCodeStatus({ check }: { check: ShortCodeCheck }) {
  const text =
    check.state === 'checking' ? 'Checking availability...' : check.state === 'valid' ? check.message : '';
  return (
    <Text size="sm" c={check.state === 'valid' ? 'green.8' : 'dimmed'} aria-live="polite">
      {text}
    </Text>
  );
}
