import { Alert, Chip } from '@mui/material';
import { DataTable, ListContextProvider, NumberField, useList, useTranslate } from 'react-admin';
import { DateTimeField } from '../../common/DateTimeField';
import type { CurrentIncentive, MemberIncentiveClaim } from '@portal/services/contracts/incentives';
import type { TotalPv } from '@portal/services/contracts/points';
import { NairaField, formatNaira } from '../../common/NairaField';
import { ActiveOnly, Figure, FigureGrid, Loaded, Section, useMember } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { ResponsiveDataTable } from '../../common/ResponsiveDataTable';

type BonusStats = {
  matching_bonus: number;
  repurchase_bonus: number;
  unilevel_bonus: number;
  upgrade_bonus: number;
  referral_bonus: number;
  placement_bonus: number;
  global_profit: number;
  total_wallet_earned: number;
};

const claimColors = { processing: 'info', approved: 'success', declined: 'error' } as const;

const ClaimsTable = ({ claims }: { claims: MemberIncentiveClaim[] }) => {
  const translate = useTranslate();
  const list = useList({ data: claims.map((c, i) => ({ ...c, sn: i + 1 })), perPage: 10 });
  return (
    <ListContextProvider value={list}>
      <ResponsiveDataTable phoneColumns={['incentive', 'worth', 'status']}
        resource="incentive-claims"
        rowClick={false}
        bulkActionButtons={false}
        empty={<Alert severity="info">{translate('pos.members.dashboard.claimed_empty')}</Alert>}
      >
        <DataTable.Col source="sn" label="pos.members.dashboard.col.sn" />
        <DataTable.Col source="incentive" label="pos.members.dashboard.col.incentive" />
        <DataTable.Col source="worth" label="pos.members.dashboard.col.worth">
          <NairaField source="worth" />
        </DataTable.Col>
        <DataTable.Col
          source="status"
          label="pos.members.dashboard.col.status"
          render={(r: MemberIncentiveClaim) => <Chip size="small" color={claimColors[r.status]} label={translate(`pos.members.claim_status.${r.status}`)} />}
        />
        <DataTable.Col source="points" label="pos.members.dashboard.col.points">
          <NumberField source="points" locales="en-US" />
        </DataTable.Col>
        <DataTable.Col source="created_at" label="pos.members.dashboard.col.date">
          <DateTimeField source="created_at" showTime />
        </DataTable.Col>
      </ResponsiveDataTable>
    </ListContextProvider>
  );
};

/** Seed 001 §2.11 item 8: the member's dashboard figures, current incentive and claimed incentives. */
const Dashboard = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const stats = usePortalQuery<BonusStats>(`/bonuses/${member.id}/bonus-stats`);
  const points = usePortalQuery<TotalPv>(`/users/${member.id}/total-pv`);
  const current = usePortalQuery<CurrentIncentive>(`/incentive-claims/${member.id}/current-incentive`);
  const claims = usePortalQuery<MemberIncentiveClaim[]>(`/incentive-claims/${member.id}/claims`);
  return (
    <>
      <Loaded query={stats} height={200}>
        {() => {
          const s = stats.data!;
          return (
            <FigureGrid>
              <Figure label="pos.members.dashboard.registration_package" value={member.package_name ?? '—'} testId="figure-package" />
              <Figure label="pos.members.dashboard.repurchase_bonus" value={formatNaira(s.repurchase_bonus)} />
              <Figure
                label="pos.members.dashboard.referral_bonus"
                value={formatNaira(s.referral_bonus + s.placement_bonus)}
                hint={translate('pos.members.dashboard.referral_hint', { referral: formatNaira(s.referral_bonus), placement: formatNaira(s.placement_bonus) })}
              />
              <Figure label="pos.members.dashboard.unilevel_bonus" value={formatNaira(s.unilevel_bonus)} />
              <Figure label="pos.members.dashboard.matching_bonus" value={formatNaira(s.matching_bonus)} />
              <Figure label="pos.members.dashboard.upgrade_bonus" value={formatNaira(s.upgrade_bonus)} />
              <Figure label="pos.members.dashboard.global_profit" value={formatNaira(s.global_profit)} />
              <Figure label="pos.members.dashboard.total_wallet_earned" value={formatNaira(s.total_wallet_earned)} testId="figure-total-earned" />
              <Figure
                label="pos.members.dashboard.cpv"
                value={points.data ? `${points.data.cpv.toLocaleString('en-US')} PV` : '…'}
                testId="figure-cpv"
              />
              <Figure
                label={current.data || !(member.rank_name ?? points.data?.rank_name) ? 'pos.members.dashboard.current_incentive' : 'pos.members.dashboard.rank'}
                value={
                  current.data
                    ? translate('pos.members.dashboard.incentive_points', { points: current.data.points.toLocaleString('en-US'), incentive: current.data.incentive })
                    : (member.rank_name ?? points.data?.rank_name ?? translate('pos.members.dashboard.not_qualified'))
                }
                testId="figure-incentive"
              />
            </FigureGrid>
          );
        }}
      </Loaded>
      <Section title="pos.members.dashboard.claimed_title" testId="claimed-incentives">
        <Loaded query={claims}>{() => <ClaimsTable claims={claims.data!} />}</Loaded>
      </Section>
    </>
  );
};

export const DashboardPanel = () => (
  <ActiveOnly>
    <Dashboard />
  </ActiveOnly>
);
