import UpgradeIcon from '@mui/icons-material/Upgrade';
import { UpgradeList } from './UpgradeList';

export default {
  list: UpgradeList,
  icon: UpgradeIcon,
  recordRepresentation: (record: { full_name?: string; package_name?: string }) => `${record.full_name ?? ''} → ${record.package_name ?? ''}`,
};
