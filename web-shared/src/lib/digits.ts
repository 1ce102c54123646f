import type { ChangeEvent } from 'react';

/**
 * Digit fields (a mailed code, a bank account number) take what the member types or pastes and
 * clean it before cutting it to length. An input's maxLength cuts a paste first, so " 564749"
 * became " 56474" and " 0123456789 " lost its last digit: these fields carry no maxLength and are
 * cut here instead, after the spaces are gone.
 */

/** A code: its digits only, at most `length` of them ("564 749", " 564749" → "564749"). */
export const codeDigits = (value: string, length = 6): string => value.replace(/\D/g, '').slice(0, length);

/**
 * An account number: without whitespace, at most `length` characters. Anything else stays, so a
 * mistyped letter is shown and refused by the form's check rather than dropped unseen.
 */
export const accountNumberInput = (value: string, length = 10): string => value.replace(/\s/g, '').slice(0, length);

/**
 * A react-hook-form field (`register(...)`) whose value is cleaned on every change and paste,
 * before the form reads it.
 */
export function cleanedField<F extends { onChange: (event: ChangeEvent<HTMLInputElement>) => unknown }>(field: F, clean: (value: string) => string): F {
  return {
    ...field,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const cleaned = clean(event.target.value);
      if (cleaned !== event.target.value) event.target.value = cleaned;
      return field.onChange(event);
    },
  };
}
