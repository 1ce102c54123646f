import { email, minLength, regex, required } from 'react-admin';
import { PASSWORD_MIN_LENGTH } from '@portal/services/contracts/auth';

/** Client-side checks mirroring contracts/auth.ts; the server validates again. */
export const validateEmail = [required(), email()];
export const validateRequired = [required()];
export const validateCode = [required(), regex(/^\d{6}$/, 'pos.validation.code')];
export const validateNewPassword = [required(), minLength(PASSWORD_MIN_LENGTH)];

export const ADMIN_USER_TYPE = 'admin';
