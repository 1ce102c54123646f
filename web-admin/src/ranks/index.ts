import MilitaryTechIcon from '@mui/icons-material/MilitaryTech';
import { lazyScreen } from '../common/lazy';

const RankCreate = lazyScreen(() => import('./RankCreate'), 'RankCreate');
const RankEdit = lazyScreen(() => import('./RankEdit'), 'RankEdit');
const RankList = lazyScreen(() => import('./RankList'), 'RankList');

export default {
  list: RankList,
  edit: RankEdit,
  create: RankCreate,
  icon: MilitaryTechIcon,
  recordRepresentation: 'name',
};
