import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, type Theme, Typography, useMediaQuery } from '@mui/material';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import TraceIcon from '@mui/icons-material/AccountTreeOutlined';
import { Link } from 'react-router-dom';
import { Loading, useBasename, useNotify, useTranslate } from 'react-admin';
import type { Statement, StatementLine } from '@portal/services/contracts/audit';
import { getToken } from '../api/token';
import { usePortalQuery } from '../api/usePortalQuery';
import { formatNaira } from '../common/NairaField';
import { Figure } from '../members/common';
import { tracePath, when } from './links';

/** Today and the first of its month on the company's calendar (Lagos, UTC+1). */
const lagosToday = () => new Date(Date.now() + 60 * 60 * 1000).toISOString().slice(0, 10);

/** Fetches the CSV with the bearer token and saves it under the server's file name. */
async function downloadCsv(path: string, fallbackName: string): Promise<void> {
  const response = await fetch(path, { headers: { Authorization: `Bearer ${getToken() ?? ''}` } });
  if (!response.ok) throw new Error(((await response.json().catch(() => ({}))) as { message?: string }).message ?? response.statusText);
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  URL.revokeObjectURL(url);
}

const TraceLink = ({ line }: { line: StatementLine }) => {
  const basename = useBasename();
  const translate = useTranslate();
  return (
    <Button size="small" component={Link} to={tracePath(basename, line.id)} startIcon={<TraceIcon />} sx={{ whiteSpace: "nowrap" }} data-testid={`statement-trace-${line.id}`}>
      {translate('pos.audit.trace')}
    </Button>
  );
};

const money = (naira: number) => (naira ? formatNaira(naira) : '');

const LinesTable = ({ lines }: { lines: StatementLine[] }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" data-testid="statement-lines">
        <TableHead>
          <TableRow>
            {['date', 'description', 'credit', 'debit', 'balance'].map((key) => (
              <TableCell key={key} align={['credit', 'debit', 'balance'].includes(key) ? 'right' : 'left'}>
                {translate(`pos.audit.${key}`)}
              </TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.id} data-testid={`statement-line-${line.id}`}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(line.recorded_at)}</TableCell>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>{line.type}</Typography>
                <Typography variant="body2" color="text.secondary">{line.description}</Typography>
              </TableCell>
              <TableCell align="right" sx={{ color: 'success.main', whiteSpace: 'nowrap' }}>{money(line.credit)}</TableCell>
              <TableCell align="right" sx={{ color: 'error.main', whiteSpace: 'nowrap' }}>{money(line.debit)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{formatNaira(line.balance)}</TableCell>
              <TableCell><TraceLink line={line} /></TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

/** On a phone each line is a card: what, when, how much, the balance after it. */
const LinesCards = ({ lines }: { lines: StatementLine[] }) => (
  <Stack spacing={1} data-testid="statement-lines">
    {lines.map((line) => (
      <Card key={line.id} variant="outlined" data-testid={`statement-line-${line.id}`}>
        <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>{line.type}</Typography>
            <Typography variant="body2" sx={{ fontWeight: 600, color: line.credit ? 'success.main' : 'error.main', whiteSpace: 'nowrap' }}>
              {line.credit ? `+${formatNaira(line.credit)}` : `−${formatNaira(line.debit)}`}
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary">{line.description}</Typography>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mt: 0.5 }}>
            <Typography variant="caption" color="text.secondary">{when(line.recorded_at)} · {formatNaira(line.balance)}</Typography>
            <TraceLink line={line} />
          </Stack>
        </CardContent>
      </Card>
    ))}
  </Stack>
);

/**
 * A member's wallet statement for a period (docs/audit.md): opening balance, every credit and debit
 * with its cause (each traceable to its root), closing balance; the same as CSV.
 */
export const MemberStatement = ({ memberId }: { memberId: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const isSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const today = lagosToday();
  const [from, setFrom] = useState(`${today.slice(0, 7)}-01`);
  const [to, setTo] = useState(today);
  const query = `from=${from}&to=${to}`;
  const statement = usePortalQuery<Statement>(from && to ? `/wallet/${memberId}/statement?${query}` : null, { retry: false });
  const s = statement.data;
  return (
    <Box data-testid="member-statement">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <TextField type="date" size="small" label={translate('pos.audit.from')} value={from} onChange={(e) => setFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'statement-from' } }} />
        <TextField type="date" size="small" label={translate('pos.audit.to')} value={to} onChange={(e) => setTo(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'statement-to' } }} />
        <Button
          variant="outlined"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          startIcon={<DownloadIcon />}
          disabled={!s}
          data-testid="statement-csv"
          onClick={() => downloadCsv(`/api/wallet/${memberId}/statement?${query}&format=csv`, `statement-${from}-${to}.csv`).catch((error: Error) => notify(error.message, { type: 'error' }))}
        >
          {translate('pos.audit.download_csv')}
        </Button>
      </Stack>
      {statement.isPending && from && to ? <Loading /> : null}
      {statement.error ? <Alert severity="error">{statement.error.message}</Alert> : null}
      {s ? (
        <>
          <Box sx={{ display: 'grid', gap: { xs: 1, sm: 2 }, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, mb: 2 }}>
            <Figure label="pos.audit.opening" value={formatNaira(s.opening_balance)} testId="statement-opening" />
            <Figure label="pos.audit.credits" value={formatNaira(s.total_credits)} testId="statement-credits" />
            <Figure label="pos.audit.debits" value={formatNaira(s.total_debits)} testId="statement-debits" />
            <Figure label="pos.audit.closing" value={formatNaira(s.closing_balance)} testId="statement-closing" />
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mb: 1 }}>
            {translate('pos.audit.balances', { opening: formatNaira(s.opening_balance), credits: formatNaira(s.total_credits), debits: formatNaira(s.total_debits), closing: formatNaira(s.closing_balance) })}
          </Typography>
          {s.lines.length === 0 ? <Alert severity="info">{translate('pos.audit.no_lines')}</Alert> : isSmall ? <LinesCards lines={s.lines} /> : <LinesTable lines={s.lines} />}
        </>
      ) : null}
    </Box>
  );
};
