import UpgradeIcon from '@mui/icons-material/Upgrade';
import { lazyScreen } from '../common/lazy';

const UpgradeList = lazyScreen(() => import('./UpgradeList'), 'UpgradeList');

export default {
  list: UpgradeList,
  icon: UpgradeIcon,
  recordRepresentation: (record: { full_name?: string; package_name?: string }) => `${record.full_name ?? ''} → ${record.package_name ?? ''}`,
};
