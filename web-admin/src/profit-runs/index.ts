import GlobalIcon from '@mui/icons-material/PublicOutlined';
import PoolIcon from '@mui/icons-material/SavingsOutlined';
import { GlobalProfitRunList, ProfitPoolRunList } from './ProfitRunLists';

/** `global-profit-runs` and `profit-pool-runs` (GET /api/admin/...): read-only lists with "Run due" for admins. */
export const globalProfitRuns = { list: GlobalProfitRunList, icon: GlobalIcon };
export const profitPoolRuns = { list: ProfitPoolRunList, icon: PoolIcon };
