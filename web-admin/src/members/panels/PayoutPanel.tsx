import { useState } from 'react';
import { Alert, Box } from '@mui/material';
import { Confirm, NumberInput, SaveButton, SimpleForm, TextInput, Toolbar, useTranslate } from 'react-admin';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { bankTransferForm } from '@portal/services/contracts/wallet';
import { formatNaira } from '../../common/NairaField';
import { Figure, Line, Section, useMember, useMemberCommand } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';

type PayoutValues = { amount: number; narration: string };

/** The server's schema (contracts/wallet.ts) checks the form, with its messages at the fields. */
const payoutResolver = zodResolver(bankTransferForm) as unknown as Resolver<FieldValues>;

/**
 * Seed 001 §2.11 item 1, 'Proceed with Payment': amount and narration, 'Make payment', confirmed,
 * then POST /api/payments/{id}/bank-transfer (the narration sent as `reason`): the wallet is debited
 * and the transfer sent to the member's bank account. Works for an inactive member too.
 */
export const PayoutPanel = () => {
  const member = useMember();
  const translate = useTranslate();
  const command = useMemberCommand();
  const wallet = usePortalQuery<{ balance: number }>(member ? `/bonuses/${member.id}/wallet-balance` : null);
  const [pending, setPending] = useState<PayoutValues | null>(null);
  const [formKey, setFormKey] = useState(0);
  if (!member) return null;
  const pay = () => {
    if (!pending) return;
    command.mutate(
      { method: 'POST', path: `/payments/${member.id}/bank-transfer`, body: { amount: pending.amount, reason: pending.narration.trim() } },
      {
        onSuccess: () => setFormKey((k) => k + 1),
        onSettled: () => setPending(null),
      },
    );
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' }, alignItems: 'start' }}>
      <Section title="pos.members.payout.title" testId="payout">
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('pos.members.payout.intro')}
        </Alert>
        <SimpleForm
          key={formKey}
          record={{ id: member.id, amount: null, narration: '' }}
          resolver={payoutResolver}
          onSubmit={(values: Record<string, unknown>) => setPending({ amount: Number(values.amount), narration: String(values.narration ?? '') })}
          sx={{ p: 0 }}
          toolbar={
            <Toolbar sx={{ px: 0 }}>
              <SaveButton label="pos.members.payout.submit" />
            </Toolbar>
          }
        >
          {/* Any amount in kobo: the browser's own step check ("the two nearest valid values") is off, the schema decides. */}
          <NumberInput source="amount" label="pos.members.payout.amount" step="any" fullWidth />
          <TextInput source="narration" label="pos.members.payout.narration" fullWidth />
        </SimpleForm>
      </Section>
      <Box>
        <Box sx={{ mb: 2 }}>
          <Figure label="pos.members.wallet.balance" value={wallet.data ? formatNaira(wallet.data.balance) : '…'} testId="payout-balance" />
        </Box>
        <Section title="pos.members.bank.current">
          {member.bank_account_number ? (
            <>
              <Line label="pos.members.bank.account_name" value={member.bank_account_name} />
              <Line label="pos.members.bank.account_number" value={member.bank_account_number} />
              <Line label="pos.members.bank.bank_name" value={member.bank_name} />
            </>
          ) : (
            <Alert severity="warning">{translate('pos.members.bank.no_bank')}</Alert>
          )}
        </Section>
      </Box>
      <Confirm
        isOpen={pending !== null}
        loading={command.isPending}
        title="pos.members.payout.confirm_title"
        content="pos.members.payout.confirm_content"
        translateOptions={{ amount: formatNaira(pending?.amount ?? 0), name: member.full_name }}
        confirm="pos.members.payout.submit"
        onConfirm={pay}
        onClose={() => setPending(null)}
      />
    </Box>
  );
};
