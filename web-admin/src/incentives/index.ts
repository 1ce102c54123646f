import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import { IncentiveCreate } from './IncentiveCreate';
import { IncentiveEdit } from './IncentiveEdit';
import { IncentiveList } from './IncentiveList';

export default {
  list: IncentiveList,
  edit: IncentiveEdit,
  create: IncentiveCreate,
  icon: EmojiEventsIcon,
  recordRepresentation: 'incentive',
};
