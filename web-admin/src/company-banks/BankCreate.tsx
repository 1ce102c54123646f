import { Create } from 'react-admin';
import { BankForm } from './BankForm';

/** Add an official company bank account: POST /api/admin/company-banks (CompanyBankDefined). */
export const BankCreate = () => (
  <Create title="pos.catalogue.banks.add" redirect="list">
    <BankForm />
  </Create>
);
