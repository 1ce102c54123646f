export { AdminLogin } from './AdminLogin';
export { TwoFactorAuth } from './TwoFactorAuth';
export { ResetPassword } from './ResetPassword';
export { PublicShell } from './PublicShell';
