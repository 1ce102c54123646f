import type { TranslationMessages } from 'react-admin';
import englishMessages from 'ra-language-english';
import { approvalsMessages } from './approvals';
import { financeMessages } from './finance';
import { dashboardMessages } from './dashboard';
import { incentivesMessages } from './incentives';
import { membersMessages } from './members';
import { catalogueMessages } from './catalogue';
import { settingsMessages } from './settings';
import { cyclesMessages } from './cycles';
import { auditMessages } from './audit';
import { operatorsMessages } from './operators';
import { tamperCheckMessages } from './tamper-check';
import { transactionsMessages } from './transactions';

/**
 * Every UI string of the back office. react-admin's own strings come from ra-language-english;
 * the app's live under `pos.*` (STYLE.md rule 15). Resource labels go under `resources.<name>`.
 */
const areas = [approvalsMessages, financeMessages, dashboardMessages, incentivesMessages, membersMessages, catalogueMessages, settingsMessages, cyclesMessages, auditMessages, operatorsMessages, tamperCheckMessages, transactionsMessages];

const customEnglishMessages: TranslationMessages = {
  ...englishMessages,
  resources: Object.assign({}, ...areas.map((area) => area.resources)),
  pos: {
    ...Object.assign({}, ...areas.map((area) => area.pos)),
    company: 'Herbal Life Network',
    back_office: 'Back office',
    menu: {
      security: 'Security',
    },
    role: {
      admin: 'Administrator',
      finance: 'Finance',
    },
    error: {
      generic: 'An error occurred',
      no_response: 'Response not found',
      no_token: 'The server did not open a session. Please try again.',
      invalid_email_query: 'Invalid email address, please return to previous page',
    },
    validation: {
      code: 'The code must be 6 digits.',
    },
    auth: {
      email: 'E-mail address',
      password: 'Password',
      new_password: 'New password',
      code: 'Verification code',
      code_helper: 'The 6-digit code we e-mailed you',
      back_to_login: 'Back to sign in',
    },
    login: {
      title: 'Sign in to the back office',
      subtitle: 'Staff access only',
      submit: 'Sign in',
      forgot: 'Forgot your password?',
      forgot_hint: 'Enter the e-mail address of your admin account and we will send you a reset code.',
      send_reset: 'Send reset code',
      cancel_reset: 'Cancel',
      idle: 'You were signed out after 15 minutes of inactivity.',
    },
    two_factor: {
      title: 'Two-factor authentication',
      intro: 'We e-mailed a 6-digit code to %{email}. Enter it below to finish signing in.',
      sending: 'Sending your code…',
      submit: 'Authenticate',
      resend: 'Resend code',
    },
    reset: {
      title: 'Reset your password',
      intro: 'Enter the code sent to %{email} and choose a new password.',
      submit: 'Reset password',
      resend: 'Resend code',
    },
    logout: {
      title: 'Sign out',
      content: 'Are you sure you want to log out?',
      confirm: 'Log out',
    },
    security: {
      title: 'Security',
      tabs: {
        two_factor: 'Two-factor authentication',
        password: 'Change password',
      },
      two_factor: {
        description:
          'When two-factor authentication is on, a 6-digit code is e-mailed to you each time you sign in.',
        switch_label: 'Require an e-mailed code at sign-in',
        status_on: 'Two-factor authentication is on.',
        status_off: 'Two-factor authentication is off.',
      },
      password: {
        description: 'Changing your password takes two steps: confirm your current password to receive a code, then choose a new password.',
        step_code: 'Confirm your current password',
        step_change: 'Choose a new password',
        email: 'E-mail address',
        old_password: 'Current password',
        send_code: 'Send confirmation code',
        code: 'Confirmation code',
        new_password: 'New password',
        submit: 'Change password',
        start_over: 'Start over',
        code_sent_to: 'A confirmation code was sent to %{email}.',
      },
    },
  },
};

export default customEnglishMessages;
