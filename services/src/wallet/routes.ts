import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { authenticate, requireAdmin, requireMember, requireSelfOrAdmin } from '../auth/guards';
import { envelope } from '../contracts/http';
import { bankTransferBody, companyFinance as companyFinanceShape, initiateWithdrawalBody, pagedWithdrawals, withdrawal, withdrawalAmountBody, withdrawalTotal } from '../contracts/wallet';
import { Forbidden, NotFound, RuleViolation } from '../core/errors';
import { koboToNaira, nairaToKobo } from '../core/money';
import { derivedId, requestWithdrawal, sendWithdrawalQuietly, setStandingWithdrawalAmount, withdrawalRead } from './commands';
import type { WithdrawalKind } from './events';
import { companyFinance, findWithdrawal, pageWithdrawals, pendingWithdrawals, withdrawalTotals } from './queries';
import { pageNumber } from '../contracts/fields';

const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });
const withdrawalParams = z.object({ id: z.uuid({ error: 'Withdrawal not found.' }) });
const pageQuery = z.object({ page: pageNumber });
const searchQuery = pageQuery.extend({ search: z.string().max(100).optional().default('') });

export const walletSuccessMessages = {
  requested: 'Withdrawal Request successful',
  amountUpdated: 'Withdrawal amount updated successfully',
  payoutMade: 'Payout successful',
} as const;

/**
 * Withdrawals (BUSINESS-RULES.md §4; seed 000 §2.7, §7; seed 001 §2.11–2.12; seed 002 §7), the
 * admin payout and company finance.
 */
export const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Records the withdrawal (the wallet is debited), then sends it at once when no payout schedule
   * holds it back. A retried request under the same Idempotency-Key is the same withdrawal.
   */
  async function withdraw(request: FastifyRequest, input: { memberId: string; kind: WithdrawalKind; amountNaira: number; reason: string }) {
    const key = request.headers['idempotency-key'];
    const withdrawalId = typeof key === 'string' && key ? derivedId(`request:${input.memberId}:${input.kind}:${key}`) : randomUUID();
    const metadata = requestMetadata(request, app.clock());
    const requested = await requestWithdrawal(app.commands, {
      withdrawalId,
      memberId: input.memberId,
      kind: input.kind,
      amountKobo: nairaToKobo(input.amountNaira),
      reason: input.reason,
    }, metadata, { ahead: request.readAhead });
    if (requested.sendNow) await sendWithdrawalQuietly(app.commands, app.gateway, withdrawalId, metadata, request.log);
    // Recorded and left for the payout run: the command's answer is the row as it stands, no read-back.
    else if (requested.withdrawal) return requested.withdrawal;
    const found = await findWithdrawal(app.db, withdrawalId);
    if (!found) throw new NotFound('Withdrawal not found.');
    return found;
  }

  app.post(
    '/withdrawals/:id/initiate',
    {
      preHandler: [requireMember, requireSelfOrAdmin('id')],
      // The wallet's read rides in the session check's statement (auth/guards.ts).
      config: { readAhead: (request) => withdrawalRead((request.params as { id?: string }).id) },
      schema: { tags: ['withdrawals'], params: memberParams, body: initiateWithdrawalBody, response: { 200: envelope(withdrawal) } },
    },
    async (request) => ({
      success: true,
      message: walletSuccessMessages.requested,
      data: await withdraw(request, { memberId: request.params.id, kind: 'withdrawal', amountNaira: request.body.amount, reason: 'Wallet withdrawal' }),
    }),
  );

  app.post(
    '/payments/:id/bank-transfer',
    { preHandler: requireAdmin('write'), schema: { tags: ['withdrawals'], params: memberParams, body: bankTransferBody, response: { 200: envelope(withdrawal) } } },
    async (request) => {
      const reason = (request.body.reason || request.body.narration || '').trim();
      if (!reason) throw new RuleViolation('The narration is required.', 'reason');
      return { success: true, message: walletSuccessMessages.payoutMade, data: await withdraw(request, { memberId: request.params.id, kind: 'payout', amountNaira: request.body.amount, reason }) };
    },
  );

  app.put(
    '/users/withdrawal-amount',
    { preHandler: requireMember, schema: { tags: ['withdrawals'], body: withdrawalAmountBody, response: { 200: envelope(z.object({ withdrawal_amount: z.number() })) } } },
    async (request) => {
      const memberId = request.account!.id;
      await setStandingWithdrawalAmount(app.commands, memberId, nairaToKobo(request.body.withdrawal_amount), requestMetadata(request, app.clock()));
      const member = await app.db.selectFrom('members').select('withdrawal_amount').where('id', '=', memberId).executeTakeFirstOrThrow();
      return { success: true, message: walletSuccessMessages.amountUpdated, data: { withdrawal_amount: koboToNaira(member.withdrawal_amount) } };
    },
  );

  app.get(
    '/withdrawals/all',
    { preHandler: requireAdmin('read'), schema: { tags: ['withdrawals'], querystring: pageQuery, response: { 200: envelope(pagedWithdrawals) } } },
    async (request) => ({ success: true, message: 'Withdrawals', data: await pageWithdrawals(app.db, {}, request.query.page) }),
  );

  app.get(
    '/withdrawals/search',
    { preHandler: requireAdmin('read'), schema: { tags: ['withdrawals'], querystring: searchQuery, response: { 200: envelope(pagedWithdrawals) } } },
    async (request) => ({ success: true, message: 'Withdrawals', data: await pageWithdrawals(app.db, { search: request.query.search }, request.query.page) }),
  );

  app.get(
    '/withdrawals/total',
    { preHandler: requireAdmin('read'), schema: { tags: ['withdrawals'], response: { 200: envelope(withdrawalTotal) } } },
    async () => ({ success: true, message: 'Total withdrawals', data: await withdrawalTotals(app.db) }),
  );

  app.get(
    '/withdrawals/:id/user-history',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['withdrawals'], params: memberParams, querystring: pageQuery, response: { 200: envelope(pagedWithdrawals) } } },
    async (request) => ({ success: true, message: 'Withdrawal history', data: await pageWithdrawals(app.db, { memberId: request.params.id }, request.query.page) }),
  );

  app.get(
    '/withdrawals/:id/user-total',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['withdrawals'], params: memberParams, response: { 200: envelope(withdrawalTotal) } } },
    async (request) => ({ success: true, message: 'Total withdrawals', data: await withdrawalTotals(app.db, request.params.id) }),
  );

  app.get(
    '/withdrawals/:id/pending',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['withdrawals'], params: memberParams, response: { 200: envelope(z.array(withdrawal)) } } },
    async (request) => ({ success: true, message: 'Pending withdrawals', data: await pendingWithdrawals(app.db, request.params.id) }),
  );

  app.get(
    '/withdrawals/:id/details',
    { schema: { tags: ['withdrawals'], params: withdrawalParams, response: { 200: envelope(withdrawal) } } },
    async (request) => {
      const account = await authenticate(request);
      const found = await findWithdrawal(app.db, request.params.id);
      if (!found) throw new NotFound('Withdrawal not found.');
      if (account.kind === 'member' && found.member_uuid !== account.id) throw new Forbidden('You may only see your own withdrawals.');
      return { success: true, message: 'Withdrawal', data: found };
    },
  );

  for (const [path, message] of [
    ['/bonuses/company-wallet-balance', 'Company wallet balance'],
    ['/bonuses/total-company-wallet', 'Total company wallet'],
  ] as const) {
    app.get(path, { preHandler: requireAdmin('read'), schema: { tags: ['bonuses'], response: { 200: envelope(companyFinanceShape) } } }, async () => ({
      success: true,
      message,
      data: await companyFinance(app.db),
    }));
  }
};
