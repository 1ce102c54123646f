import { type ReactNode, useState } from 'react';
import { Alert, Box, Chip, InputAdornment, Pagination, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { ListContextProvider, Pagination as RaPagination, useList, useTranslate } from 'react-admin';

/** A page of one of the portal's paged reads (API.md §1). */
export type Paged<T> = { data: T[]; current_page: number; last_page: number; per_page: number; total: number };

/** Seed 001 §4: processing (info), approved (success), pending (warning), anything else (danger). */
export const StatusChip = ({ status }: { status: string }) => {
  const translate = useTranslate();
  const color = status === 'approved' ? 'success' : status === 'processing' ? 'info' : status === 'pending' ? 'warning' : 'error';
  return <Chip size="small" color={color} label={translate(`pos.members.stockist.status.${status}`, { _: status })} />;
};

/**
 * A read that returns the whole list (stock, stock details, rebate earnings) shown 10 rows a page,
 * with a search box that filters the rows by the text of the given fields. The seed's search boxes
 * were inert and its pages static (seed 001 §2.5); these work.
 */
export function SearchableRows<T extends Record<string, unknown>>({ rows, searchOn, children, testId }: { rows: T[]; searchOn: Array<keyof T>; children: ReactNode; testId: string }) {
  const translate = useTranslate();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = needle === '' ? rows : rows.filter((row) => searchOn.some((field) => String(row[field] ?? '').toLowerCase().includes(needle)));
  const list = useList({ data: shown.map((row, index) => ({ id: index, ...row })), perPage: 10 });
  return (
    <Box data-testid={testId}>
      {rows.length > 0 ? (
        <TextField
          size="small"
          placeholder={translate('pos.members.stockist.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ mb: 1, maxWidth: 320 }}
          fullWidth
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> }, htmlInput: { 'aria-label': translate('pos.members.stockist.search') } }}
        />
      ) : null}
      <ListContextProvider value={list}>
        {children}
        {shown.length > 10 ? <RaPagination rowsPerPageOptions={[]} /> : null}
      </ListContextProvider>
    </Box>
  );
}

/** Pages of a server-paged read below its table. */
export const PageSwitch = ({ paged, page, onChange }: { paged: Paged<unknown> | undefined; page: number; onChange: (page: number) => void }) =>
  paged && paged.last_page > 1 ? (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
      <Pagination count={paged.last_page} page={page} onChange={(_event, next) => onChange(next)} size="small" />
    </Box>
  ) : null;

export const EmptyText = ({ text }: { text: string }) => {
  const translate = useTranslate();
  return <Alert severity="info">{translate(text)}</Alert>;
};
