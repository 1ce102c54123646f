import { randomUUID } from 'node:crypto';
import { type BonusCredited, walletStream } from '../src/compensation/events';
import type { CommandContext } from '../src/core/command';
import { appendToStreams } from '../src/core/event-store';
import { handleProfileCommand } from '../src/profile/commands';
import { appendMembers, benchMetadata, rootId } from './network';

/** Money each member starts with: far more than a benchmark withdraws. */
const FUNDS_KOBO = 1_000_000_000_00;

/**
 * `count` active Crown members (a chain down the root's left leg) with verified bank details and
 * ₦1,000,000,000 each in the wallet (one BonusCredited each), for the HTTP and lag benchmarks.
 * Members come from network.ts (MemberRegistered + MemberActivated in bulk, projected inline).
 */
export async function createFundedMembers(ctx: CommandContext, count: number): Promise<Array<{ id: string; username: string }>> {
  const db = ctx.db;
  const now = new Date();
  const root = await rootId(db);
  const members = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    username: `bench_http_${i}_${randomUUID().slice(0, 8)}`,
    sponsorId: root,
    placementParentId: root,
    leg: 'left' as const,
    packageId: 6,
  }));
  // Placed in a chain (each the left child of the previous), so every placement slot is free.
  members.forEach((m, i) => {
    if (i > 0) m.placementParentId = members[i - 1]!.id;
  });
  await appendMembers(db, members, now);
  const metadata = benchMetadata(now);
  for (const m of members) {
    await handleProfileCommand(ctx, m.id, () => ({
      type: 'ChangeBankDetails',
      data: { member_id: m.id, account: { bank_name: 'Bench Bank', bank_code: '001', account_number: '0123456789', account_name: `Bench ${m.username}` }, by: 'admin' },
    }), metadata);
  }
  await db.transaction().execute((trx) =>
    appendToStreams(trx, members.map((m) => {
      const bonus: BonusCredited = {
        type: 'BonusCredited',
        data: { kind: 'referral', beneficiary_id: m.id, amount_kobo: FUNDS_KOBO, cause: { event_id: randomUUID(), event_type: 'BenchFunding', stream_id: 'bench', member_id: null }, generation: 1, inputs: {} },
      };
      return { streamId: walletStream(m.id), events: [bonus] };
    }), { metadata }),
  );

  return members;
}
