import { Edit } from 'react-admin';
import { PackageForm } from './PackageForm';

/** 'Edit Package': saved with PUT /api/admin/packages/{id} (the PackageUpdated command). */
export const PackageEdit = () => (
  <Edit title="pos.catalogue.packages.edit" mutationMode="pessimistic" redirect="list">
    <PackageForm />
  </Edit>
);
