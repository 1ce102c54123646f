import MilitaryTechIcon from '@mui/icons-material/MilitaryTech';
import { lazyScreen } from '../common/lazy';
import { writePage } from '../common/writePage';

const RankCreate = lazyScreen(() => import('./RankCreate'), 'RankCreate');
const RankEdit = lazyScreen(() => import('./RankEdit'), 'RankEdit');
const RankList = lazyScreen(() => import('./RankList'), 'RankList');

export default {
  list: RankList,
  edit: writePage(RankEdit, 'edit'),
  create: writePage(RankCreate, 'create'),
  icon: MilitaryTechIcon,
  recordRepresentation: 'name',
};
