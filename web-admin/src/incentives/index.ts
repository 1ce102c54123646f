import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import { lazyScreen } from '../common/lazy';
import { writePage } from '../common/writePage';

const IncentiveCreate = lazyScreen(() => import('./IncentiveCreate'), 'IncentiveCreate');
const IncentiveEdit = lazyScreen(() => import('./IncentiveEdit'), 'IncentiveEdit');
const IncentiveList = lazyScreen(() => import('./IncentiveList'), 'IncentiveList');

export default {
  list: IncentiveList,
  edit: writePage(IncentiveEdit, 'edit'),
  create: writePage(IncentiveCreate, 'create'),
  icon: EmojiEventsIcon,
  recordRepresentation: 'incentive',
};
