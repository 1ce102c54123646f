import ProductIcon from '@mui/icons-material/LocalFlorist';
import { ProductCreate } from './ProductCreate';
import { ProductEdit } from './ProductEdit';
import { ProductList } from './ProductList';

/** Company products (seed 002 "Products screen"), resource `products`. */
export default {
  list: ProductList,
  edit: ProductEdit,
  create: ProductCreate,
  icon: ProductIcon,
  recordRepresentation: 'name',
};
