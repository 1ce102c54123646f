import { Create } from 'react-admin';
import { ProductForm, productTransform } from './ProductForm';

/** 'Add Product': POST /api/admin/products (ProductDefined). */
export const ProductCreate = () => (
  <Create title="pos.catalogue.products.add" redirect="list" transform={productTransform}>
    <ProductForm />
  </Create>
);
