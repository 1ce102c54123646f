import { Typography } from '@mui/material';
import { BRAND } from '../lib/brand';

/*
 * The terms and the privacy policy shown to members. Plain-language summaries written for the
 * portal; the company's legal team should review and replace them with the final wording.
 */

export function TermsText() {
  return (
    <>
      <Typography variant="body2" paragraph>
        By creating an account on the {BRAND.name} you agree to these terms.
      </Typography>
      <Typography variant="subtitle2">1. Membership</Typography>
      <Typography variant="body2" paragraph>
        You must give true details about yourself. Your account is personal: keep your password and codes secret and do not
        share your account. Your registration is complete only when your package payment is confirmed, within 7 days of
        signing up.
      </Typography>
      <Typography variant="subtitle2">2. Placement and sponsor</Typography>
      <Typography variant="body2" paragraph>
        The placement and sponsor you enter decide where you sit in the network. Check them before you submit; they cannot
        be changed by you afterwards.
      </Typography>
      <Typography variant="subtitle2">3. Earnings</Typography>
      <Typography variant="body2" paragraph>
        Bonuses are paid according to the compensation plan in force, in naira, and depend on real product sales and
        activity in your network. No income is guaranteed. Withdrawals go to the bank account registered on your profile
        and may carry third-party bank charges.
      </Typography>
      <Typography variant="subtitle2">4. Products</Typography>
      <Typography variant="body2" paragraph>
        Our herbal products are food supplements and wellness products, not medicines. Do not make medical claims about
        them to others. Product pick-ups are made at approved stockists.
      </Typography>
      <Typography variant="subtitle2">5. Conduct</Typography>
      <Typography variant="body2" paragraph>
        Accounts used for fraud, misleading recruitment or abuse of the compensation plan may be suspended or closed, and
        related bonuses withheld.
      </Typography>
    </>
  );
}

export function PrivacyText() {
  return (
    <>
      <Typography variant="body2" paragraph>
        This policy explains what the {BRAND.name} does with your personal data.
      </Typography>
      <Typography variant="subtitle2">What we collect</Typography>
      <Typography variant="body2" paragraph>
        Your name, username, e-mail address, phone number, address, photo, bank account details, your position in the
        network, your orders and your payments.
      </Typography>
      <Typography variant="subtitle2">Why we use it</Typography>
      <Typography variant="body2" paragraph>
        To run your account, confirm your payments, calculate and pay your bonuses, process product pick-ups, keep your
        account secure and meet our legal obligations.
      </Typography>
      <Typography variant="subtitle2">Who sees it</Typography>
      <Typography variant="body2" paragraph>
        Your upline and downlines see your name, username and package. Payment providers and banks receive what they need
        to process payments. We do not sell your data.
      </Typography>
      <Typography variant="subtitle2">Your rights</Typography>
      <Typography variant="body2" paragraph>
        You may ask to see, correct or delete your data, subject to the records we must keep by law, in line with the
        Nigeria Data Protection Act 2023.
      </Typography>
    </>
  );
}
