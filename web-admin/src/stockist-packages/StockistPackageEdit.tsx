import { Create, Edit } from 'react-admin';
import { StockistPackageForm } from './StockistPackageForm';

/** 'Edit Package': PUT /api/admin/stockist-packages/{id} (StockistPackageUpdated). */
export const StockistPackageEdit = () => (
  <Edit title="pos.catalogue.stockist_packages.edit" mutationMode="pessimistic" redirect="list">
    <StockistPackageForm />
  </Edit>
);

/** POST /api/admin/stockist-packages (StockistPackageDefined). */
export const StockistPackageCreate = () => (
  <Create title="pos.catalogue.stockist_packages.create" redirect="list">
    <StockistPackageForm />
  </Create>
);
