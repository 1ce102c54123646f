import BankIcon from '@mui/icons-material/AccountBalance';
import { lazyScreen } from '../common/lazy';

const BankCreate = lazyScreen(() => import('./BankCreate'), 'BankCreate');
const BankEdit = lazyScreen(() => import('./BankEdit'), 'BankEdit');
const BankList = lazyScreen(() => import('./BankList'), 'BankList');

/** The company's bank accounts (seed 002 "Company details"), resource `company-banks`. */
export default {
  list: BankList,
  edit: BankEdit,
  create: BankCreate,
  icon: BankIcon,
  recordRepresentation: 'bank_name',
};
