import PeopleIcon from '@mui/icons-material/People';
import type { AdminMember } from '@portal/services/contracts/members';
import { lazyScreen } from '../common/lazy';

const MemberList = lazyScreen(() => import('./MemberList'), 'MemberList');
const MemberShow = lazyScreen(() => import('./MemberShow'), 'MemberShow');

/** The members resource (seed 001 §2.10–2.11): list and per-member panels; writes go through the portal's command paths. */
export default {
  list: MemberList,
  show: MemberShow,
  icon: PeopleIcon,
  recordRepresentation: (record: AdminMember) => record.full_name,
};
