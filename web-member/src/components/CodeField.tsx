import { forwardRef } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';

/** The 6-digit code mailed to the member. */
export const CodeField = forwardRef<HTMLDivElement, TextFieldProps>(function CodeField(props, ref) {
  return (
    <TextField
      label="Code"
      autoComplete="one-time-code"
      {...props}
      ref={ref}
      slotProps={{
        htmlInput: { inputMode: 'numeric', maxLength: 6, style: { letterSpacing: '0.3em', fontWeight: 600 } },
      }}
    />
  );
});
