import { DateField, type DateFieldProps } from 'react-admin';
import { DATE_LOCALE, dayOptions, momentOptions } from './dates';

/**
 * react-admin's DateField in the back office's one date format (common/dates.ts): "22 Nov 2026"
 * for a day, "22 Nov 2026, 5:47 am" with `showTime`, in Lagos time. Every list and detail uses
 * this instead of DateField, so no screen picks its own locale or style.
 */
export const DateTimeField = ({ showTime = false, ...props }: Omit<DateFieldProps, 'locales' | 'options' | 'showDate'>) => (
  <DateField {...props} showTime={showTime} locales={DATE_LOCALE} options={showTime ? momentOptions : dayOptions} />
);
