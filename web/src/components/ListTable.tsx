import { Table, type TableProps, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

/** A column's heading: its text, or a name that only assistive technology reads (a column of buttons). */
type Heading = string | { hidden: string };

/**
 * A list as a table: its headings, one row per item (the children), and a horizontal scroll below
 * `minWidth` so that a phone keeps every column readable.
 */
export function ListTable({
  minWidth,
  headings,
  children,
  ...table
}: TableProps & { minWidth: number; headings: readonly Heading[]; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>
            {headings.map((heading) =>
              typeof heading === 'string' ? (
                <Table.Th key={heading}>{heading}</Table.Th>
              ) : (
                // Text, not only a label: a header with no text is an empty header to a screen reader's table mode.
                <Table.Th key={heading.hidden}>
                  <VisuallyHidden>{heading.hidden}</VisuallyHidden>
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
