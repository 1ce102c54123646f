import VerifiedIcon from '@mui/icons-material/VerifiedUserOutlined';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { useBasename, useTranslate } from 'react-admin';
import { StatCard } from '../dashboard/StatCard';
import { formatWhen } from './TamperResult';
import { useLatestTamperCheck } from './useTamperCheck';

/** The dashboard's word on the log: the last tamper check's result and when, linking to the check. */
export const TamperCheckCard = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const latest = useLatestTamperCheck();
  const last = latest.data?.last_finished ?? null;
  return (
    <StatCard
      icon={VerifiedIcon}
      title="pos.tamper.dashboard_title"
      testId="tamper-check"
      figure={{ value: last ? translate(`pos.tamper.status.${last.status}`) : translate('pos.tamper.dashboard_never'), isPending: latest.isPending, isError: latest.isError }}
      caption={
        <>
          {last && <span data-testid="tamper-checked-at">{translate('pos.tamper.dashboard_checked', { when: formatWhen(last.finished_at) })} · </span>}
          <Link component={RouterLink} to={`${basename}/tamper-check`} variant="caption">
            {translate('pos.tamper.menu')}
          </Link>
        </>
      }
    />
  );
};
