import MatchingIcon from '@mui/icons-material/CompareArrowsOutlined';
import { MatchingCycleList } from './MatchingCycleList';
import { MatchingCycleShow } from './MatchingCycleShow';

/** The `matching-cycles` resource (GET /api/admin/matching-cycles): read-only list and show, and "Close due cycle" for admins. */
export default {
  list: MatchingCycleList,
  show: MatchingCycleShow,
  icon: MatchingIcon,
  recordRepresentation: (record: { cycle_end?: string }) => record.cycle_end ?? '',
};
