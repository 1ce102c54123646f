import RedeemIcon from '@mui/icons-material/Redeem';
import { lazyScreen } from '../common/lazy';

const IncentiveClaimList = lazyScreen(() => import('./IncentiveClaimList'), 'IncentiveClaimList');

export default {
  list: IncentiveClaimList,
  icon: RedeemIcon,
  recordRepresentation: (record: { username?: string; incentive?: string }) => `${record.username ?? ''} — ${record.incentive ?? ''}`,
};
