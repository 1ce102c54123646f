import { Edit } from 'react-admin';
import { ProductForm, productTransform } from './ProductForm';

/** 'Edit Product': PUT /api/admin/products/{id} (ProductUpdated). Points stay as they are (hidden on edit). */
export const ProductEdit = () => (
  <Edit title="pos.catalogue.products.edit" mutationMode="pessimistic" redirect="list" transform={productTransform}>
    <ProductForm />
  </Edit>
);
