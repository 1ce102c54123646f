import { email, minLength, regex, required } from 'react-admin';
import { PASSWORD_MIN_LENGTH } from '@portal/services/contracts/auth';

/** Client-side checks mirroring contracts/auth.ts; the server validates again. */
export const validateEmail = [required(), email()];
export const validateRequired = [required()];
export const validateCode = [required(), regex(/^\d{6}$/, 'pos.validation.code')];
export const validateNewPassword = [required(), minLength(PASSWORD_MIN_LENGTH)];


/** Form values arrive untyped from react-hook-form; read one text field. */
export type FormValues = Record<string, unknown>;
export const textField = (values: FormValues, name: string): string => {
  const value = values[name];
  return typeof value === 'string' ? value.trim() : '';
};
/** Passwords are sent exactly as typed. */
export const passwordField = (values: FormValues, name: string): string => {
  const value = values[name];
  return typeof value === 'string' ? value : '';
};
