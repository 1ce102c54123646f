import WithdrawalIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import { formatNaira } from '../common/NairaField';
import { lazyScreen } from '../common/lazy';

const WithdrawalList = lazyScreen(() => import('./WithdrawalList'), 'WithdrawalList');
const WithdrawalShow = lazyScreen(() => import('./WithdrawalShow'), 'WithdrawalShow');

/** The `withdrawals` resource (GET /api/admin/withdrawals): read-only, list and show. */
export default {
  list: WithdrawalList,
  show: WithdrawalShow,
  icon: WithdrawalIcon,
  recordRepresentation: (record: { username?: string; amount?: number }) => `${record.username ?? ''} ${formatNaira(record.amount)}`,
};
