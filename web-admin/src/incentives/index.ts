import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import { lazyScreen } from '../common/lazy';

const IncentiveCreate = lazyScreen(() => import('./IncentiveCreate'), 'IncentiveCreate');
const IncentiveEdit = lazyScreen(() => import('./IncentiveEdit'), 'IncentiveEdit');
const IncentiveList = lazyScreen(() => import('./IncentiveList'), 'IncentiveList');

export default {
  list: IncentiveList,
  edit: IncentiveEdit,
  create: IncentiveCreate,
  icon: EmojiEventsIcon,
  recordRepresentation: 'incentive',
};
