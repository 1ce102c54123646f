/**
 * The profile routes' success messages. Apart from contracts/profile.ts (which re-exports them) so
 * the member app's pages can show them without loading zod and the schemas (as genealogy-depth.ts).
 */
/** Success messages, word for word from the seeds (000 §8, 002 §8). */
export const profileMessages = {
  dataUpdated: 'data updated successfully',
  bankUpdated: 'Bank details updated successfully',
  bankEditableEnabled: 'The member can now change their bank details',
  bankEditableDisabled: 'The member can no longer change their bank details',
  friendInvited: 'Friend invited successfully',
  messageSent: 'Message Sent successfully',
  banks: 'Banks retrieved',
  bankVerified: 'Account verified',
  profile: 'Profile details',
  noProfile: 'User has not submitted profile details',
  member: 'Member details',
  frontPageMessage: 'Front page message',
} as const;
