import BankIcon from '@mui/icons-material/AccountBalance';
import { BankCreate } from './BankCreate';
import { BankEdit } from './BankEdit';
import { BankList } from './BankList';

/** The company's bank accounts (seed 002 "Company details"), resource `company-banks`. */
export default {
  list: BankList,
  edit: BankEdit,
  create: BankCreate,
  icon: BankIcon,
  recordRepresentation: 'bank_name',
};
