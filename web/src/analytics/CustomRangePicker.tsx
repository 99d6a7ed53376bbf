import '@mantine/dates/styles.css';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { MAX_CUSTOM_RANGE_DAYS } from '@sniplink/contracts';
import { useState } from 'react';

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** Today in the reader's calendar, YYYY-MM-DD. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * The reader's first day of the week (Mantine: 0 Sunday … 6 Saturday), from their locale where the browser
 * tells it (`Intl.Locale#getWeekInfo`), else Monday.
 */
function firstDayOfWeek(): 0 | 1 | 2 | 3 | 4 | 5 | 6 {
  const locale = new Intl.Locale(navigator.language) as Intl.Locale & {
    getWeekInfo?(): { firstDay: number };
  };
  const firstDay = locale.getWeekInfo?.().firstDay ?? 1;
  return (firstDay % 7) as 0 | 1 | 2 | 3 | 4 | 5 | 6;
}

/**
 * Picks a custom range's first and last day (both included): today at the latest, a year at most. The
 * range changes once both ends are picked.
 */
export default function CustomRangePicker({
  value,
  onChange,
}: {
  value: { from: string; to: string };
  onChange(range: { from: string; to: string }): void;
}) {
  const [picked, setPicked] = useState<DatesRangeValue<string>>([value.from, value.to]);
  const [from, to] = picked;
  const tooLong = from && to ? dayNumber(to) - dayNumber(from) + 1 > MAX_CUSTOM_RANGE_DAYS : false;
  return (
    <DatePickerInput
      type="range"
      size="xs"
      label="Days"
      placeholder="First and last day"
      value={picked}
      maxDate={today()}
      allowSingleDateInRange
      // Days of other months are drawn faint and weekends red, both below the contrast people can read.
      hideOutsideDates
      firstDayOfWeek={firstDayOfWeek()}
      weekendDays={[]}
      popoverProps={{ attributes: { dropdown: { 'aria-label': 'Calendar: pick the first and last day' } } }}
      // Mantine's calendar controls have no names of their own.
      ariaLabels={{
        nextMonth: 'Next month',
        previousMonth: 'Previous month',
        nextYear: 'Next year',
        previousYear: 'Previous year',
        nextDecade: 'Next decade',
        previousDecade: 'Previous decade',
      }}
      valueFormat="D MMM YYYY"
      error={tooLong ? `At most ${MAX_CUSTOM_RANGE_DAYS} days` : undefined}
      onChange={(next) => {
        setPicked(next);
        const [first, last] = next;
        if (first && last && dayNumber(last) - dayNumber(first) + 1 <= MAX_CUSTOM_RANGE_DAYS) {
          onChange({ from: first, to: last });
        }
      }}
      miw={220}
    />
  );
}
