import { useState } from 'react';
import { Alert, Box, Chip, Pagination, Tab, Tabs } from '@mui/material';
import { DataTable, ListContextProvider, useList, useTranslate } from 'react-admin';
import { DateTimeField } from '../../common/DateTimeField';
import type { Withdrawal } from '@portal/services/contracts/wallet';
import { NairaField, formatNaira } from '../../common/NairaField';
import { ActiveOnly, Figure, FigureGrid, Loaded, Section, useMember } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { MemberStatement } from '../../event-log/MemberStatement';
import { ResponsiveDataTable } from '../../common/ResponsiveDataTable';
import { formatMonth } from '../../common/dates';

type Paged<T> = { data: T[]; current_page: number; last_page: number; per_page: number; total: number };
type BonusStats = { referral_bonus: number; placement_bonus: number; matching_bonus: number; unilevel_bonus: number; global_profit: number };
type WalletBalance = { total_bonus: number; total_withdrawn: number; balance: number };
type WithdrawalTotal = { total: number; count: number };
type GlobalProfit = { id: number; profit: number; share_date: string; created_at: string };

const statusColors = { pending: 'warning', processing: 'info', successful: 'success', failed: 'error' } as const;

const monthOf = (iso: string) => formatMonth(iso);

const GlobalProfits = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const shares = usePortalQuery<Paged<GlobalProfit>>(`/bonuses/${member.id}/global-profits`);
  const list = useList({ data: (shares.data?.data ?? []).map((s) => ({ ...s, month: monthOf(s.share_date) })), perPage: 12 });
  return (
    <Section title="pos.members.wallet.global_profit_title">
      <Loaded query={shares}>
        {() => (
          <ListContextProvider value={list}>
            <ResponsiveDataTable phoneColumns={['month', 'profit']} resource="global-profits" rowClick={false} bulkActionButtons={false} empty={<Alert severity="info">{translate('pos.members.wallet.no_global_profit')}</Alert>}>
              <DataTable.Col source="month" label="pos.members.wallet.months" />
              <DataTable.Col source="profit" label="pos.members.wallet.profit">
                <NairaField source="profit" />
              </DataTable.Col>
              <DataTable.Col source="created_at" label="pos.members.wallet.date">
                <DateTimeField source="created_at" showTime />
              </DataTable.Col>
            </ResponsiveDataTable>
          </ListContextProvider>
        )}
      </Loaded>
    </Section>
  );
};

const Summary = () => {
  const member = useMember()!;
  const stats = usePortalQuery<BonusStats>(`/bonuses/${member.id}/bonus-stats`);
  const wallet = usePortalQuery<WalletBalance>(`/bonuses/${member.id}/wallet-balance`);
  const withdrawals = usePortalQuery<WithdrawalTotal>(`/withdrawals/${member.id}/user-total`);
  return (
    <>
      <Loaded query={{ isPending: stats.isPending || wallet.isPending || withdrawals.isPending, error: stats.error ?? wallet.error ?? withdrawals.error }} height={180}>
        {() => (
          <FigureGrid>
            <Figure label="pos.members.wallet.total_referral" value={formatNaira(stats.data!.referral_bonus + stats.data!.placement_bonus)} />
            <Figure label="pos.members.wallet.matching" value={formatNaira(stats.data!.matching_bonus)} />
            <Figure label="pos.members.wallet.unilevel" value={formatNaira(stats.data!.unilevel_bonus)} />
            <Figure label="pos.members.wallet.global_pool" value={formatNaira(stats.data!.global_profit)} />
            <Figure label="pos.members.wallet.total_bonus" value={formatNaira(wallet.data!.total_bonus)} testId="wallet-total-bonus" />
            <Figure label="pos.members.wallet.total_withdrawals" value={formatNaira(withdrawals.data!.total)} />
            <Figure label="pos.members.wallet.balance" value={formatNaira(wallet.data!.balance)} testId="wallet-balance" />
          </FigureGrid>
        )}
      </Loaded>
      <GlobalProfits />
    </>
  );
};

const Transactions = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const wallet = usePortalQuery<WalletBalance>(`/bonuses/${member.id}/wallet-balance`);
  const total = usePortalQuery<WithdrawalTotal>(`/withdrawals/${member.id}/user-total`);
  const history = usePortalQuery<Paged<Withdrawal>>(`/withdrawals/${member.id}/user-history?page=${page}`);
  const list = useList({ data: history.data?.data ?? [], perPage: 100 });
  return (
    <>
      <FigureGrid>
        <Figure label="pos.members.wallet.available_balance" value={wallet.data ? formatNaira(wallet.data.balance) : '…'} testId="available-balance" />
        <Figure label="pos.members.wallet.total_withdrawals" value={total.data ? formatNaira(total.data.total) : '…'} />
      </FigureGrid>
      <Section title="pos.members.wallet.history" testId="withdrawal-history">
        <Loaded query={history}>
          {() => (
            <ListContextProvider value={list}>
              <ResponsiveDataTable phoneColumns={['amount', 'status']} resource="withdrawals" rowClick={false} bulkActionButtons={false} empty={<Alert severity="info">{translate('pos.members.wallet.no_withdrawals')}</Alert>}>
                <DataTable.Col source="amount" label="pos.members.wallet.amount">
                  <NairaField source="amount" />
                </DataTable.Col>
                <DataTable.Col source="type" label="pos.members.wallet.type" render={(w: Withdrawal) => translate(`pos.members.withdrawal_type.${w.type}`)} />
                <DataTable.Col
                  source="status"
                  label="pos.members.wallet.status"
                  render={(w: Withdrawal) => <Chip size="small" color={statusColors[w.status]} label={translate(`pos.members.withdrawal_status.${w.status}`)} />}
                />
                <DataTable.Col source="created_at" label="pos.members.wallet.date">
                  <DateTimeField source="created_at" showTime />
                </DataTable.Col>
              </ResponsiveDataTable>
            </ListContextProvider>
          )}
        </Loaded>
        {history.data && history.data.last_page > 1 ? (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
            <Pagination count={history.data.last_page} page={page} onChange={(_event, next) => setPage(next)} size="small" />
          </Box>
        ) : null}
      </Section>
    </>
  );
};

/** Seed 001 §2.11 item 9: Wallet Summary and Transactions; and the statement whose lines trace to their roots (docs/audit.md). */
const Wallet = () => {
  const translate = useTranslate();
  const member = useMember()!;
  const [tab, setTab] = useState<'summary' | 'transactions' | 'statement'>('summary');
  return (
    <>
      <Tabs value={tab} onChange={(_event, next: 'summary' | 'transactions' | 'statement') => setTab(next)} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="summary" label={translate('pos.members.wallet.summary')} />
        <Tab value="transactions" label={translate('pos.members.wallet.transactions')} />
        <Tab value="statement" label={translate('pos.audit.statement')} data-testid="wallet-statement-tab" />
      </Tabs>
      {tab === 'summary' ? <Summary /> : tab === 'transactions' ? <Transactions /> : <MemberStatement memberId={member.id} />}
    </>
  );
};

export const WalletPanel = () => (
  <ActiveOnly>
    <Wallet />
  </ActiveOnly>
);
