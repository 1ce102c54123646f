import { Card, CardContent, CardHeader, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import LocalShippingIcon from '@mui/icons-material/LocalShippingOutlined';
import { useTranslate } from 'react-admin';
import { formatNaira } from '../common/NairaField';
import { FigureText } from './StatCard';
import { type Period, formatCount, usePickupStats } from './useDashboardData';

const types = ['registration', 'upgrade', 'repurchase'] as const;

/**
 * Pick-up counts and amounts by type over the period (seed 001 §2.7), from GET
 * /api/product-purchases/pickup-stats. Until stockists record pick-ups the server counts approved
 * registration and upgrade payments and paid repurchases, as the note under the table says.
 */
export const PickupStatsCard = ({ period }: { period: Period }) => {
  const translate = useTranslate();
  const query = usePickupStats(period);
  const figure = (format: (data: NonNullable<typeof query.data>) => string) => ({
    value: query.data ? format(query.data) : undefined,
    isPending: query.isPending,
    isError: query.isError,
  });
  return (
    <Card sx={{ flex: 1 }}>
      <CardHeader
        avatar={<LocalShippingIcon color="secondary" />}
        title={translate('pos.dashboard.pickups.title')}
        subheader={translate(`pos.dashboard.period.${period}`)}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        sx={{ pb: 0 }}
      />
      <CardContent sx={{ pt: 1 }}>
        <Table size="small" aria-label={translate('pos.dashboard.pickups.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('pos.dashboard.pickups.type')}</TableCell>
              <TableCell align="right">{translate('pos.dashboard.pickups.count')}</TableCell>
              <TableCell align="right">{translate('pos.dashboard.pickups.amount')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {types.map((type) => (
              <TableRow key={type}>
                <TableCell>{translate(`pos.dashboard.pickups.${type}`)}</TableCell>
                <TableCell align="right">
                  <FigureText width={40} testId={`pickups-${type}-count`} figure={figure((d) => formatCount(d[`${type}_count`]))} />
                </TableCell>
                <TableCell align="right">
                  <FigureText width={90} testId={`pickups-${type}-amount`} figure={figure((d) => formatNaira(d[`${type}_amount`]))} />
                </TableCell>
              </TableRow>
            ))}
            <TableRow sx={{ '& td': { fontWeight: 600, borderBottom: 0 } }}>
              <TableCell>{translate('pos.dashboard.pickups.total')}</TableCell>
              <TableCell align="right">
                <FigureText width={40} testId="pickups-total-count" figure={figure((d) => formatCount(d.registration_count + d.upgrade_count + d.repurchase_count))} />
              </TableCell>
              <TableCell align="right">
                <FigureText
                  width={90}
                  testId="pickups-total-amount"
                  figure={figure((d) => formatNaira(d.registration_amount + d.upgrade_amount + d.repurchase_amount))}
                />
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
          {translate('pos.dashboard.pickups.note')}
        </Typography>
      </CardContent>
    </Card>
  );
};
