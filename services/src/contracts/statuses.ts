/**
 * The words a status reads as, the same in the member app and the back office (issue 11: a
 * withdrawal was "Pending" to the member and "Queued" to the admin). Keys are the API's values.
 */
export const withdrawalStatusLabels = {
  pending: 'Queued',
  processing: 'Sent',
  successful: 'Paid',
  failed: 'Failed',
  refused: 'Refused',
  reversed: 'Reversed',
} as const;

/** What each withdrawal status means, for a member or an admin. */
export const withdrawalStatusMeaning = {
  pending: 'The wallet is debited; the transfer waits for the next payout run.',
  processing: 'The transfer was handed to the payment provider; the bank has not confirmed it yet.',
  successful: "The bank received the money in the member's account.",
  failed: 'The transfer failed; the whole amount went back to the wallet.',
  refused: 'The payment provider refused the transfer; the whole amount went back to the wallet.',
  reversed: 'The bank reversed the transfer; the whole amount went back to the wallet.',
} as const;

export function withdrawalStatusLabel(status: string): string {
  return (withdrawalStatusLabels as Record<string, string>)[status] ?? status.charAt(0).toUpperCase() + status.slice(1);
}
