import { useState } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import HowToRegIcon from '@mui/icons-material/HowToRegOutlined';
import TimelineIcon from '@mui/icons-material/Timeline';
import AccountBalanceWalletIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import PaidIcon from '@mui/icons-material/PaidOutlined';
import { Title, usePermissions, useTranslate } from 'react-admin';
import { formatNaira } from '../common/NairaField';
import { BonusTotalsCard } from './BonusTotalsCard';
import { Welcome } from './Welcome';
import { FrontPageMessageCard, GeneralMessageCard } from './MessageForms';
import { PaymentsChart } from './PaymentsChart';
import { PeriodSwitch } from './PeriodSwitch';
import { PickupStatsCard } from './PickupStatsCard';
import { TamperCheckCard } from '../tamper-check/TamperCheckCard';
import { FigureText, StatCard, figureOf } from './StatCard';
import {
  type Period,
  formatCount,
  useBonusStats,
  useCompanyWallet,
  useTotalActiveUsers,
  useTotalRegistrationPv,
  useTotalRegistrations,
} from './useDashboardData';

/** One "label … figure" line under a stat card's divider. */
const Line = ({ label, children }: { label: string; children: React.ReactNode }) => {
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', px: 2, py: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {children}
      </Typography>
    </Stack>
  );
};

/**
 * The admin dashboard of seed 001 §2.7, laid out like the react-admin demo's: a small welcome card;
 * figure cards for registrations and their PV, the company wallet and the bonuses paid; pick-ups
 * by type and bonus totals (and the bonuses paid card), following the period switch
 * (`?type=all|today|month|year`); payments per month; and, for administrators only, the two
 * message forms of §3.9 (finance staff read the figures but do not change settings).
 */
export const Dashboard = () => {
  const translate = useTranslate();
  const { permissions } = usePermissions<'admin' | 'finance'>();
  const [period, setPeriod] = useState<Period>('all');

  const registrations = useTotalRegistrations();
  const active = useTotalActiveUsers();
  const pv = useTotalRegistrationPv();
  const wallet = useCompanyWallet();
  const bonuses = useBonusStats(period);

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 3 }}>
      <Title title="pos.dashboard.title" />
      <Welcome />

      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('pos.dashboard.period.label')}
        </Typography>
        <PeriodSwitch value={period} onChange={setPeriod} />
      </Stack>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' }, alignItems: 'stretch' }}>
        <StatCard
          icon={HowToRegIcon}
          title="pos.dashboard.registrations.title"
          testId="total-registrations"
          figure={figureOf(registrations, formatCount)}
          caption={<FigureText width={90} testId="total-active" figure={figureOf(active, (n) => translate('pos.dashboard.registrations.active', { count: formatCount(n) }))} />}
        />
        <StatCard
          icon={TimelineIcon}
          title="pos.dashboard.registrations.pv_title"
          testId="registration-pv"
          figure={figureOf(pv, (n) => translate('pos.dashboard.registrations.pv', { pv: formatCount(n) }))}
          caption={translate('pos.dashboard.all_time')}
        />
        <StatCard icon={AccountBalanceWalletIcon} title="pos.dashboard.wallet.title" testId="company-wallet" figure={figureOf(wallet, (w) => formatNaira(w.total_company_wallet))}>
          <Line label="pos.dashboard.wallet.withdrawals">
            <FigureText width={70} testId="company-withdrawals" figure={figureOf(wallet, (w) => formatNaira(w.total_withdrawals))} />
          </Line>
          <Line label="pos.dashboard.wallet.balance">
            <FigureText width={70} testId="company-balance" figure={figureOf(wallet, (w) => formatNaira(w.balance))} />
          </Line>
        </StatCard>
        <StatCard
          icon={PaidIcon}
          title="pos.dashboard.bonus_total.title"
          testId="bonuses-paid"
          figure={figureOf(bonuses, (b) => formatNaira(b.total_bonus_sum))}
          caption={translate(`pos.dashboard.period.${period}`)}
        />
      </Box>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, alignItems: 'stretch' }}>
        <PickupStatsCard period={period} />
        <BonusTotalsCard period={period} />
      </Box>

      <PaymentsChart />

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' }, alignItems: 'stretch' }}>
        <TamperCheckCard />
      </Box>

      {permissions === 'admin' ? (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'stretch' }}>
          <FrontPageMessageCard />
          <GeneralMessageCard />
        </Box>
      ) : null}
    </Stack>
  );
};
