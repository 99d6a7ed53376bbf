import '@mantine/dates/styles.css';
import { DateTimePicker } from '@mantine/dates';
import type { ReactNode } from 'react';
import { pickerTime } from './linkForm';

const dayMs = 86_400_000;
/** A moment `days` from now, on the hour, as the picker holds it. */
const inDays = (days: number) => {
  const at = new Date(Date.now() + days * dayMs);
  at.setMinutes(0, 0, 0);
  return pickerTime(at);
};

/**
 * When the link stops redirecting: a day and a time in the reader's own time zone, with the usual picks
 * one click away. Loaded with the form's "More options" only (the calendar is the largest part of them).
 */
export default function ExpiryPicker({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange(value: string | null): void;
  error?: ReactNode;
}) {
  return (
    <DateTimePicker
      label="Expires"
      description="After this the link stops redirecting (to the fallback URL if one is set)"
      placeholder="Never"
      // "Never" is the field's answer, not a hint: Mantine's placeholder grey (2:1 on white) is below AA.
      styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
      clearable
      clearButtonProps={{ 'aria-label': 'Clear expiry' }}
      value={value}
      onChange={onChange}
      error={error}
      minDate={pickerTime(new Date())}
      valueFormat="D MMM YYYY, HH:mm"
      presets={[
        { value: inDays(1), label: 'In 1 day' },
        { value: inDays(7), label: 'In 7 days' },
        { value: inDays(30), label: 'In 30 days' },
      ]}
      hideOutsideDates
      weekendDays={[]}
      popoverProps={{ attributes: { dropdown: { 'aria-label': 'Calendar: pick the expiry' } } }}
      // Mantine's calendar controls have no names of their own.
      ariaLabels={{
        nextMonth: 'Next month',
        previousMonth: 'Previous month',
        nextYear: 'Next year',
        previousYear: 'Previous year',
        nextDecade: 'Next decade',
        previousDecade: 'Previous decade',
      }}
      submitButtonProps={{ 'aria-label': 'Set expiry' }}
      timePickerProps={{
        hoursInputLabel: 'Hours',
        minutesInputLabel: 'Minutes',
        amPmInputLabel: 'AM or PM',
      }}
    />
  );
}
