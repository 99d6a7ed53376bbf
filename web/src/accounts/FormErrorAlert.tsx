import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

/** A failed submit, announced to screen readers as soon as it appears (role="alert"). */
export function FormErrorAlert({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" variant="light" role="alert">
      {children}
    </Alert>
  );
}
