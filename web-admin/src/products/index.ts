import ProductIcon from '@mui/icons-material/LocalFlorist';
import { lazyScreen } from '../common/lazy';
import { writePage } from '../common/writePage';

const ProductCreate = lazyScreen(() => import('./ProductCreate'), 'ProductCreate');
const ProductEdit = lazyScreen(() => import('./ProductEdit'), 'ProductEdit');
const ProductList = lazyScreen(() => import('./ProductList'), 'ProductList');

/** Company products (seed 002 "Products screen"), resource `products`. */
export default {
  list: ProductList,
  edit: writePage(ProductEdit, 'edit'),
  create: writePage(ProductCreate, 'create'),
  icon: ProductIcon,
  recordRepresentation: 'name',
};
