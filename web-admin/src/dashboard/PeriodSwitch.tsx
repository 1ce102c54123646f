import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type Period, periods } from './useDashboardData';

/** All time, today, this month, this year: the `?type=` the period-aware figures accept. */
export const PeriodSwitch = ({ value, onChange }: { value: Period; onChange: (period: Period) => void }) => {
  const translate = useTranslate();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      color="primary"
      value={value}
      onChange={(_event, next: Period | null) => next && onChange(next)}
      aria-label={translate('pos.dashboard.period.label')}
      sx={{ bgcolor: 'background.paper', flexWrap: 'wrap' }}
    >
      {periods.map((period) => (
        <ToggleButton key={period} value={period} sx={{ px: 1.5 }}>
          {translate(`pos.dashboard.period.${period}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
};
