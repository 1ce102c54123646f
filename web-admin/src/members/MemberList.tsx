import { SerialField } from '../common/SerialField';
import { type MouseEvent, useState } from 'react';
import { Avatar, Box, Chip, Divider, IconButton, ListItemText, Menu, MenuItem, Tab, Tabs, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import {
  ColumnsButton,
  DataTable,
  List,
  SearchInput,
  TopToolbar,
  useCreatePath,
  useListContext,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { useNavigate } from 'react-router-dom';
import type { AdminMember } from '@portal/services/contracts/members';
import { useCanWrite } from './common';
import { storageUrl } from './storage';
import { ExportCsvButton } from '../common/ExportCsvButton';
import { ResponsiveDataTable } from '../common/ResponsiveDataTable';

/**
 * The members list (seed 001 §2.10): MEMBERS INFORMATION, tabs All / Active / Inactive / Stockists,
 * a search over first name, last name, username, e-mail or package (one or two characters: their
 * start, said under the tabs), newest first.
 */
type TabName = 'all' | 'active' | 'inactive' | 'stockists';
const tabFilters: Record<TabName, Record<string, boolean>> = {
  all: {},
  active: { status: true },
  inactive: { status: false },
  stockists: { is_stockist: true },
};

const tabOf = (filter: Record<string, unknown>): TabName => {
  if (filter.is_stockist === true) return 'stockists';
  if (filter.status === true) return 'active';
  if (filter.status === false) return 'inactive';
  return 'all';
};

const useFilters = () => {
  const translate = useTranslate();
  return [<SearchInput key="q" source="q" alwaysOn placeholder={translate('pos.members.search_hint')} sx={{ minWidth: 320 }} />];
};

const ListActions = () => (
  <TopToolbar>
    <ExportCsvButton />
    <ColumnsButton />
  </TopToolbar>
);

const Empty = () => {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  const tab = tabOf(filterValues);
  return (
    <Typography variant="body2" color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="members-empty">
      {tab === 'all' ? translate('pos.members.empty') : translate('pos.members.empty_type', { type: translate(`pos.members.type.${tab}`) })}
    </Typography>
  );
};

const Photo = () => {
  const record = useRecordContext<AdminMember>();
  if (!record) return null;
  return (
    <Avatar src={storageUrl(record.photo_path)} alt={record.full_name} sx={{ width: 36, height: 36 }}>
      {record.first_name.charAt(0).toUpperCase()}
    </Avatar>
  );
};

const Status = () => {
  const record = useRecordContext<AdminMember>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      color={record.status ? 'success' : 'default'}
      variant={record.status ? 'filled' : 'outlined'}
      label={translate(record.status ? 'pos.members.status.active' : 'pos.members.status.inactive')}
    />
  );
};

/** Seed 001 §2.10: the panels hidden for an inactive member; Send Message and Make Payout always there. */
const readPanels = ['dashboard', 'profile', 'genealogy', 'wallet', 'repurchase', 'bank', 'login'] as const;
const writePanels = ['message', 'payout'] as const;
/** Seed 001 §2.10: a stockist's menu adds its three panels (reads, so finance sees them too). */
const stockistPanels = ['stockist_profile', 'stockist_record', 'processed_orders'] as const;
export const panelPaths: Record<string, string> = {
  dashboard: '',
  profile: 'profile',
  bank: 'bank',
  wallet: 'wallet',
  repurchase: 'repurchases',
  genealogy: 'genealogy',
  login: 'login',
  message: 'message',
  payout: 'payout',
  stockist_profile: 'stockist-profile',
  stockist_record: 'stockist-record',
  processed_orders: 'processed-orders',
};

/** The menu draws a line between the read panels, the stockist's panels and the writes. */
const groupOf = (panel: string) =>
  (writePanels as readonly string[]).includes(panel) ? 'write' : (stockistPanels as readonly string[]).includes(panel) ? 'stockist' : 'read';

const ActionMenu = () => {
  const record = useRecordContext<AdminMember>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!record) return null;
  const items = [...(record.status ? readPanels : []), ...(record.is_stockist ? stockistPanels : []), ...(canWrite ? writePanels : [])];
  if (items.length === 0) return null;
  const open = (panel: string) => {
    setAnchor(null);
    const show = createPath({ resource: 'members', id: record.id, type: 'show' });
    navigate(panelPaths[panel] ? `${show}/${panelPaths[panel]}` : show);
  };
  return (
    <>
      <IconButton
        size="small"
        aria-label={translate('ra.action.show')}
        data-testid="member-actions"
        onClick={(event: MouseEvent<HTMLElement>) => {
          event.stopPropagation();
          setAnchor(event.currentTarget);
        }}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} onClick={(event) => event.stopPropagation()}>
        {items.map((panel, index) => [
          index > 0 && groupOf(panel) !== groupOf(items[index - 1]!) ? (
            <Divider key={`${panel}-divider`} />
          ) : null,
          <MenuItem key={panel} onClick={() => open(panel)}>
            <ListItemText>{translate(`pos.members.panels.${panel}`)}</ListItemText>
          </MenuItem>,
        ])}
      </Menu>
    </>
  );
};

const MemberTabs = () => {
  const translate = useTranslate();
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const tab = tabOf(filterValues);
  const change = (_event: unknown, next: TabName) => {
    const { status: _status, is_stockist: _stockist, ...rest } = filterValues as Record<string, unknown>;
    setFilters({ ...rest, ...tabFilters[next] }, displayedFilters);
  };
  return (
    <Tabs value={tab} onChange={change} variant="scrollable" sx={{ borderBottom: 1, borderColor: 'divider' }}>
      {(Object.keys(tabFilters) as TabName[]).map((name) => (
        <Tab key={name} value={name} label={translate(`pos.members.tabs.${name}`)} data-testid={`members-tab-${name}`} />
      ))}
    </Tabs>
  );
};

/**
 * Said when the search has one or two characters: the api then matches the start of a name,
 * username, e-mail or package, not any part (docs/decisions.md 75).
 */
const ShortSearchNote = () => {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  const q = typeof filterValues.q === 'string' ? [...filterValues.q.trim()].length : 0;
  if (q < 1 || q > 2) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="p" sx={{ px: 2, pt: 1 }} data-testid="members-short-search">
      {translate('pos.members.short_search')}
    </Typography>
  );
};

const MemberTable = () => (
  <>
    <MemberTabs />
    <ShortSearchNote />
    <ResponsiveDataTable phoneColumns={['full_name', 'status', 'actions']} rowClick="show" bulkActionButtons={false} empty={<Empty />}>
      <DataTable.Col source="sn" disableSort>
        <SerialField />
      </DataTable.Col>
      <DataTable.Col source="photo_path" disableSort>
        <Photo />
      </DataTable.Col>
      <DataTable.Col source="full_name" />
      <DataTable.Col source="email" />
      <DataTable.Col source="username" />
      <DataTable.Col source="package_name" />
      <DataTable.Col source="created_at">
        <DateTimeField source="created_at" />
      </DataTable.Col>
      <DataTable.Col source="status">
        <Status />
      </DataTable.Col>
      <DataTable.Col source="stockist_package_name" disableSort render={(r: AdminMember) => r.stockist_package_name ?? ''} />
      <DataTable.Col source="stockist_status" disableSort render={(r: AdminMember) => (r.stockist_status ? <StockistChip status={r.stockist_status} /> : '')} />
      <DataTable.Col source="stockist_created_at" disableSort>
        <DateTimeField source="stockist_created_at" emptyText="" />
      </DataTable.Col>
      <DataTable.Col source="actions" disableSort>
        <Box sx={{ textAlign: 'right' }}>
          <ActionMenu />
        </Box>
      </DataTable.Col>
    </ResponsiveDataTable>
  </>
);

const stockistColors = { approved: 'info', pending: 'warning', disapproved: 'default' } as const;

/** The member's stockist record: Stockist once approved; else the application's state. */
const StockistChip = ({ status }: { status: NonNullable<AdminMember['stockist_status']> }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={stockistColors[status]}
      variant={status === 'approved' ? 'filled' : 'outlined'}
      label={translate(status === 'approved' ? 'pos.members.status.stockist' : `pos.members.stockist.status.${status}`)}
    />
  );
};

export const MemberList = () => {
  const filters = useFilters();
  return (
    <List
      title="pos.members.title"
      filters={filters}
      actions={<ListActions />}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={25}
      empty={false}
      exporter={false}
      storeKey={false}
    >
      <MemberTable />
    </List>
  );
};
