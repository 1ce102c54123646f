/**
 * The reference a member writes on a bank transfer, so the admin approving the receipt can match
 * the money to the member and what it pays for. Derived, not stored: the same member and purpose
 * always give the same reference, on the member's page and in the back office.
 */
export type TransferPurpose = 'registration' | 'upgrade' | 'product_purchase' | 'stockist';

const purposeCode: Record<TransferPurpose, string> = { registration: 'REG', upgrade: 'UPG', product_purchase: 'BUY', stockist: 'STK' };

export function transferReference(purpose: TransferPurpose, username: string, packageId?: number | null): string {
  const who = username.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 18);
  return `HLN-${purposeCode[purpose]}-${who}${packageId ? `-P${packageId}` : ''}`;
}
