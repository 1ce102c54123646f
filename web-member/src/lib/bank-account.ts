import type { ProfileDetails } from '@portal/services/contracts/profile';

/**
 * What the member's bank account on file allows. Apart from components/BankDetailsForm.tsx (which
 * re-exports them) so a page that only asks, such as the wallet, loads no form library with them.
 */

/** A member may change their own bank account only while bank_editable is true (seed 000 §6). */
export function bankEditable(details: ProfileDetails | null | undefined): boolean {
  return details?.bank_editable !== false;
}

export function hasBankAccount(details: ProfileDetails | null | undefined): details is ProfileDetails & { bank_account_number: string } {
  return Boolean(details?.bank_account_number);
}
