/**
 * The sign-in routes' success messages. Apart from contracts/auth.ts (which re-exports them) so the
 * member app's pages can show them without loading zod and the schemas (as genealogy-depth.ts).
 */
/** Success messages, word for word from the seeds (000 §8, 002 §8). */
export const authMessages = {
  registered: 'Account created successfully and a confirmation code has been sent to your email',
  emailConfirmed: 'Email confirmed successfully please login to continue',
  confirmationResent: 'Email confirmation code resent successfully',
  resetCodeSent: 'Reset password code has been sent to your email address',
  passwordReset: 'Password has been reset successfully please login to continue',
  changeCodeSent: 'Change password code has been sent to your email address',
  passwordChanged: 'Password has been changed successfully',
  userPasswordChanged: 'user password has been changed successfully',
  twoFactorOn: 'Two-factor sign-in is on: a code is mailed at each sign-in.',
  twoFactorOff: 'Two-factor sign-in is off.',
} as const;
