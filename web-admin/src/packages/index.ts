import PackageIcon from '@mui/icons-material/Inventory2';
import { PackageCreate } from './PackageCreate';
import { PackageEdit } from './PackageEdit';
import { PackageList } from './PackageList';

/** Registration packages (seed 002 "Packages screen"), resource `packages`. */
export default {
  list: PackageList,
  edit: PackageEdit,
  create: PackageCreate,
  icon: PackageIcon,
  recordRepresentation: 'name',
};
