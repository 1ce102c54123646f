import { Create } from 'react-admin';
import { PackageForm } from './PackageForm';

export const PackageCreate = () => (
  <Create title="pos.catalogue.packages.create" redirect="list">
    <PackageForm />
  </Create>
);
