import EventLogIcon from '@mui/icons-material/ReceiptLongOutlined';
import { lazyScreen } from '../common/lazy';

const EventList = lazyScreen(() => import('./EventList'), 'EventList');
const EventShow = lazyScreen(() => import('./EventShow'), 'EventShow');
export const StreamTimeline = lazyScreen(() => import('./StreamTimeline'), 'StreamTimeline');
export const TracePage = lazyScreen(() => import('./TracePage'), 'TracePage');

/** The `events` resource (GET /api/admin/events, docs/audit.md): the event log explorer, read-only. */
export default {
  list: EventList,
  show: EventShow,
  icon: EventLogIcon,
  recordRepresentation: (record: { type?: string; id?: number }) => `${record.type ?? ''} #${record.id ?? ''}`,
};
