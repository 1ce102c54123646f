import { forwardRef } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';
import { codeDigits } from '@portal/web-shared/lib/digits';

/**
 * The 6-digit code mailed to the member. Typed or pasted, only its digits are kept, cut to six
 * after the spaces are gone (no maxLength: it would cut " 564749" to " 56474" first).
 */
export const CodeField = forwardRef<HTMLDivElement, TextFieldProps>(function CodeField({ onChange, ...props }, ref) {
  return (
    <TextField
      label="Code"
      autoComplete="one-time-code"
      {...props}
      ref={ref}
      onChange={(event) => {
        const cleaned = codeDigits(event.target.value);
        if (cleaned !== event.target.value) event.target.value = cleaned;
        onChange?.(event);
      }}
      slotProps={{
        htmlInput: { inputMode: 'numeric', style: { letterSpacing: '0.3em', fontWeight: 600 } },
      }}
    />
  );
});
