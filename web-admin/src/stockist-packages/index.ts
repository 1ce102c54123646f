import StoreIcon from '@mui/icons-material/Storefront';
import { StockistPackageCreate, StockistPackageEdit } from './StockistPackageEdit';
import { StockistPackageList } from './StockistPackageList';
import { writePage } from '../common/writePage';

/** Stockist packages (seed 002 "Stockist packages"), resource `stockist-packages`. */
export default {
  list: StockistPackageList,
  edit: writePage(StockistPackageEdit, 'edit'),
  create: writePage(StockistPackageCreate, 'create'),
  icon: StoreIcon,
  recordRepresentation: 'name',
};
