import { Fragment } from 'react';
import { Card, CardHeader, Divider, List, ListItem, ListItemText, Typography } from '@mui/material';
import RedeemIcon from '@mui/icons-material/RedeemOutlined';
import { useTranslate } from 'react-admin';
import { formatNaira } from '../common/NairaField';
import { FigureText, type Figure } from './StatCard';
import { type Period, formatCount, useBonusStats } from './useDashboardData';

type Row = { key: string; figure: Figure; secondary?: Figure };

/**
 * Bonus totals (seed 001 §2.7): matching, repurchase, unilevel, global sharing with its eligible
 * count, upgrade and referral, over the period, from GET /api/bonuses/bonus-stats?type= (the
 * eligible count is as of now).
 */
export const BonusTotalsCard = ({ period }: { period: Period }) => {
  const translate = useTranslate();
  const stats = useBonusStats(period);
  const fromStats = (pick: (d: NonNullable<typeof stats.data>) => number): Figure => ({
    value: stats.data ? formatNaira(pick(stats.data)) : undefined,
    isPending: stats.isPending,
    isError: stats.isError,
  });
  const rows: Row[] = [
    { key: 'matching', figure: fromStats((d) => d.matching_bonus_sum) },
    { key: 'repurchase', figure: fromStats((d) => d.repurchase_bonus_sum) },
    { key: 'unilevel', figure: fromStats((d) => d.unilevel_bonus_sum) },
    {
      key: 'global_sharing',
      figure: fromStats((d) => d.global_profit_sum),
      secondary: {
        value: stats.data ? translate('pos.dashboard.bonuses.eligible', { count: formatCount(stats.data.global_profit_eligible_count) }) : undefined,
        isPending: stats.isPending,
        isError: stats.isError,
      },
    },
    { key: 'upgrade', figure: fromStats((d) => d.upgrade_bonus_sum) },
    { key: 'referral', figure: fromStats((d) => d.referral_bonus_sum) },
  ];
  return (
    <Card sx={{ flex: 1 }}>
      <CardHeader
        avatar={<RedeemIcon color="secondary" />}
        title={translate('pos.dashboard.bonuses.title')}
        subheader={translate(`pos.dashboard.period.${period}`)}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        sx={{ pb: 0 }}
      />
      <List dense>
        {rows.map((row, index) => (
          <Fragment key={row.key}>
            {index > 0 ? <Divider component="li" variant="middle" /> : null}
            <ListItem secondaryAction={<Typography sx={{ fontWeight: 500 }}><FigureText figure={row.figure} testId={`bonus-${row.key}`} width={80} /></Typography>}>
              <ListItemText
                primary={translate(`pos.dashboard.bonuses.${row.key}`)}
                secondary={row.secondary ? <FigureText figure={row.secondary} testId={`bonus-${row.key}-eligible`} width={60} /> : undefined}
              />
            </ListItem>
          </Fragment>
        ))}
      </List>
    </Card>
  );
};
