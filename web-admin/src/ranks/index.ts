import MilitaryTechIcon from '@mui/icons-material/MilitaryTech';
import { RankCreate } from './RankCreate';
import { RankEdit } from './RankEdit';
import { RankList } from './RankList';

export default {
  list: RankList,
  edit: RankEdit,
  create: RankCreate,
  icon: MilitaryTechIcon,
  recordRepresentation: 'name',
};
