import PackageIcon from '@mui/icons-material/Inventory2';
import { lazyScreen } from '../common/lazy';
import { writePage } from '../common/writePage';

const PackageCreate = lazyScreen(() => import('./PackageCreate'), 'PackageCreate');
const PackageEdit = lazyScreen(() => import('./PackageEdit'), 'PackageEdit');
const PackageList = lazyScreen(() => import('./PackageList'), 'PackageList');

/** Registration packages (seed 002 "Packages screen"), resource `packages`. */
export default {
  list: PackageList,
  edit: writePage(PackageEdit, 'edit'),
  create: writePage(PackageCreate, 'create'),
  icon: PackageIcon,
  recordRepresentation: 'name',
};
