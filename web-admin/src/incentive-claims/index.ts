import RedeemIcon from '@mui/icons-material/Redeem';
import { IncentiveClaimList } from './IncentiveClaimList';

export default {
  list: IncentiveClaimList,
  icon: RedeemIcon,
  recordRepresentation: (record: { username?: string; incentive?: string }) => `${record.username ?? ''} — ${record.incentive ?? ''}`,
};
