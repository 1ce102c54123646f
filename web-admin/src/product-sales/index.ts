import SalesIcon from '@mui/icons-material/ShoppingBasketOutlined';
import { lazyScreen } from '../common/lazy';

const ProductSalesList = lazyScreen(() => import('./ProductSalesList'), 'ProductSalesList');

/** The `product-sales` resource (GET /api/admin/product-sales): one read-only record per month. */
export default {
  list: ProductSalesList,
  icon: SalesIcon,
  recordRepresentation: 'period',
};
