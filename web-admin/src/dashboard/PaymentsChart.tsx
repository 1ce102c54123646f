import { Box, Card, CardContent, CardHeader, Skeleton, Typography, useTheme } from '@mui/material';
import BarChartIcon from '@mui/icons-material/BarChartOutlined';
import { useTranslate } from 'react-admin';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNaira } from '../common/NairaField';
import { usePickupStats } from './useDashboardData';

const monthLabel = (month: string) =>
  new Date(`${month}-15T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const compactNaira = (naira: number) =>
  `₦${new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(naira)}`;

/**
 * Payments per month over the last twelve months, stacked by type (registration, upgrade,
 * repurchase): the `monthly` part of GET /api/product-purchases/pickup-stats (all time).
 */
export const PaymentsChart = () => {
  const translate = useTranslate();
  const theme = useTheme();
  const { data, isPending, isError } = usePickupStats('all');
  const series = [
    { key: 'registration_amount', label: translate('pos.dashboard.pickups.registration'), color: theme.palette.primary.main },
    { key: 'upgrade_amount', label: translate('pos.dashboard.pickups.upgrade'), color: theme.palette.secondary.main },
    { key: 'repurchase_amount', label: translate('pos.dashboard.pickups.repurchase'), color: theme.palette.primary.light },
  ];
  const months = data?.monthly.map((m) => ({ ...m, label: monthLabel(m.month) })) ?? [];
  const empty = months.every((m) => m.registration_amount + m.upgrade_amount + m.repurchase_amount === 0);
  return (
    <Card>
      <CardHeader
        avatar={<BarChartIcon color="secondary" />}
        title={translate('pos.dashboard.chart.title')}
        subheader={translate('pos.dashboard.chart.subtitle')}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        sx={{ pb: 0 }}
      />
      <CardContent>
        {isPending ? (
          <Skeleton variant="rounded" height={280} />
        ) : isError ? (
          <Typography color="text.secondary">{translate('pos.dashboard.unavailable')}</Typography>
        ) : empty ? (
          <Typography color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
            {translate('pos.dashboard.chart.empty')}
          </Typography>
        ) : (
          <Box sx={{ width: '100%', height: 300 }} data-testid="payments-chart">
            <ResponsiveContainer>
              <BarChart data={months} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={8} />
                <YAxis tickFormatter={compactNaira} tick={{ fontSize: 12 }} width={64} />
                <Tooltip formatter={(value) => formatNaira(Number(value))} />
                <Legend itemSorter={null} />
                {series.map((s) => (
                  <Bar key={s.key} dataKey={s.key} name={s.label} stackId="paid" fill={s.color} maxBarSize={40} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
