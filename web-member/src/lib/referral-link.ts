/**
 * The member's referral link (seed 000 §2.5): the registration page with `ref` (the placement)
 * set to the member's username. When the member names a placement in their downline, the link
 * places the newcomer there (`ref`) and keeps the member as sponsor (`placer`), as the server's
 * invitation link does (profile/mails.ts referralLink).
 */
export function referralLink(origin: string, username: string, placement?: string | null): string {
  const named = placement?.trim();
  const query = new URLSearchParams(named && named !== username ? { ref: named, placer: username } : { ref: username });
  return `${origin.replace(/\/+$/, '')}/register?${query}`;
}
