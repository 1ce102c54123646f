import HowToRegIcon from '@mui/icons-material/HowToReg';
import { lazyScreen } from '../common/lazy';

const RegistrationList = lazyScreen(() => import('./RegistrationList'), 'RegistrationList');

export default {
  list: RegistrationList,
  icon: HowToRegIcon,
  recordRepresentation: (record: { full_name?: string; username?: string }) => `${record.full_name ?? ''} (${record.username ?? ''})`,
};
