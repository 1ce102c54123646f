import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { lazyScreen } from '../common/lazy';

const PackagePaymentList = lazyScreen(() => import('./PackagePaymentList'), 'PackagePaymentList');

export default {
  list: PackagePaymentList,
  icon: ReceiptLongIcon,
  recordRepresentation: (record: { full_name?: string; package_name?: string }) => `${record.full_name ?? ''} — ${record.package_name ?? ''}`,
};
