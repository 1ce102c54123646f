import StoreIcon from '@mui/icons-material/Storefront';
import { StockistPackageCreate, StockistPackageEdit } from './StockistPackageEdit';
import { StockistPackageList } from './StockistPackageList';

/** Stockist packages (seed 002 "Stockist packages"), resource `stockist-packages`. */
export default {
  list: StockistPackageList,
  edit: StockistPackageEdit,
  create: StockistPackageCreate,
  icon: StoreIcon,
  recordRepresentation: 'name',
};
