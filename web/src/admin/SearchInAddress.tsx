import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { adminRoute } from './places';

/** How long a search waits for the typing to stop before it goes into the address. */
const searchDebounceMs = 300;

/**
 * A console tab's search box whose search is a place (`q`). Once the typing stops, the search goes into
 * the address in place of the last one, on page 1 (the route's loader then brings that page). The last
 * one written is remembered so that the address and the box never chase each other.
 */
export function SearchInAddress({
  label,
  ...input
}: Omit<TextInputProps, 'value' | 'onChange'> & { label: string }) {
  const { q: search = '' } = adminRoute.useSearch();
  const navigate = adminRoute.useNavigate();
  const [typed, setTyped] = useState(search);
  const [debounced] = useDebouncedValue(typed.trim(), searchDebounceMs);
  const written = useRef(search);
  useEffect(() => {
    if (debounced === written.current) return;
    written.current = debounced;
    void navigate({
      search: (previous) => ({ ...previous, q: debounced || undefined, page: undefined }),
      replace: true,
    });
  }, [debounced, navigate]);
  return (
    <TextInput
      aria-label={label}
      value={typed}
      onChange={(event) => setTyped(event.currentTarget.value)}
      {...input}
    />
  );
}
