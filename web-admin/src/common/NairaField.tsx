import { NumberField, type NumberFieldProps } from 'react-admin';

/** Naira with ₦ and US grouping (API.md: money fields carry naira), e.g. ₦1,250,000.00. */
export const nairaOptions: Intl.NumberFormatOptions = { style: 'currency', currency: 'NGN', currencyDisplay: 'narrowSymbol' };

export const NairaField = (props: NumberFieldProps) => <NumberField locales="en-US" options={nairaOptions} {...props} />;

export const formatNaira = (naira: number | null | undefined): string =>
  new Intl.NumberFormat('en-US', nairaOptions).format(Number(naira ?? 0));
