import type { ReactNode } from 'react';
import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatNaira } from '../common/NairaField';

/** One figure of the company's money: a label, the amount in naira, a line saying what it counts. */
export const FigureCard = (props: {
  label: string;
  value: number | null | undefined;
  help?: ReactNode;
  icon?: ReactNode;
  loading?: boolean;
  action?: ReactNode;
  testId?: string;
  tone?: 'default' | 'primary';
}) => {
  const translate = useTranslate();
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent sx={{ p: 2.5, display: 'flex', flexDirection: 'column', gap: 0.5, height: '100%' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
          {props.icon}
          <Typography variant="subtitle2" component="h2">
            {translate(props.label)}
          </Typography>
        </Box>
        {props.loading ? (
          <Skeleton variant="text" width="60%" height={44} />
        ) : (
          <Typography
            variant="h5"
            component="p"
            data-testid={props.testId}
            sx={{ fontWeight: 600, color: props.tone === 'primary' ? 'primary.main' : 'text.primary' }}
          >
            {props.value === null || props.value === undefined ? translate('pos.finance.company.unavailable') : formatNaira(props.value)}
          </Typography>
        )}
        {props.help && (
          <Typography variant="body2" color="text.secondary">
            {props.help}
          </Typography>
        )}
        {props.action && <Box sx={{ mt: 'auto', pt: 1 }}>{props.action}</Box>}
      </CardContent>
    </Card>
  );
};
