import BankIcon from '@mui/icons-material/AccountBalance';
import { lazyScreen } from '../common/lazy';
import { writePage } from '../common/writePage';

const BankCreate = lazyScreen(() => import('./BankCreate'), 'BankCreate');
const BankEdit = lazyScreen(() => import('./BankEdit'), 'BankEdit');
const BankList = lazyScreen(() => import('./BankList'), 'BankList');

/** The company's bank accounts (seed 002 "Company details"), resource `company-banks`. */
export default {
  list: BankList,
  edit: writePage(BankEdit, 'edit'),
  create: writePage(BankCreate, 'create'),
  icon: BankIcon,
  recordRepresentation: 'bank_name',
};
