import { Edit } from 'react-admin';
import { BankForm } from './BankForm';

/** 'Edit bank': PUT /api/admin/company-banks/{id} (CompanyBankUpdated). */
export const BankEdit = () => (
  <Edit title="pos.catalogue.banks.edit" mutationMode="pessimistic" redirect="list" actions={false}>
    <BankForm />
  </Edit>
);
