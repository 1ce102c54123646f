import { SerialField } from '../common/SerialField';
import { type MouseEvent, useState } from 'react';
import { Avatar, Box, Chip, Divider, IconButton, ListItemText, Menu, MenuItem, Tab, Tabs, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import {
  ColumnsButton,
  DataTable,
  DateField,
  List,
  SearchInput,
  TopToolbar,
  useCreatePath,
  useListContext,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { AdminMember } from '@portal/services/contracts/members';
import { useCanWrite } from './common';
import { storageUrl } from './storage';

/**
 * The members list (seed 001 §2.10): MEMBERS INFORMATION, tabs All / Active / Inactive / Stockists,
 * a search over first name, last name, username, e-mail or package, newest first.
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

/** No stockists exist yet: their columns start hidden; the columns button shows them. */
const stockistColumns = ['stockist_package_name', 'stockist_status', 'stockist_created_at'];

const ListActions = () => (
  <TopToolbar>
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
};

const ActionMenu = () => {
  const record = useRecordContext<AdminMember>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!record) return null;
  const items = [...(record.status ? readPanels : []), ...(canWrite ? writePanels : [])];
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
          index > 0 && (writePanels as readonly string[]).includes(panel) && !(writePanels as readonly string[]).includes(items[index - 1]!) ? (
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

const MemberTable = () => (
  <>
    <MemberTabs />
    <DataTable rowClick="show" bulkActionButtons={false} empty={<Empty />} hiddenColumns={stockistColumns}>
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
        <DateField source="created_at" locales="en-GB" />
      </DataTable.Col>
      <DataTable.Col source="status">
        <Status />
      </DataTable.Col>
      <DataTable.Col source="stockist_package_name" disableSort render={(r: AdminMember) => r.stockist_package_name ?? ''} />
      <DataTable.Col source="stockist_status" disableSort render={(r: AdminMember) => (r.is_stockist ? <StockistChip /> : '')} />
      <DataTable.Col source="stockist_created_at" disableSort>
        <DateField source="stockist_created_at" locales="en-GB" emptyText="" />
      </DataTable.Col>
      <DataTable.Col source="actions" disableSort>
        <Box sx={{ textAlign: 'right' }}>
          <ActionMenu />
        </Box>
      </DataTable.Col>
    </DataTable>
  </>
);

const StockistChip = () => {
  const translate = useTranslate();
  return <Chip size="small" color="info" label={translate('pos.members.status.stockist')} />;
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
