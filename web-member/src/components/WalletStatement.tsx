import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, TextField, Typography } from '@mui/material';
import Download from '@mui/icons-material/DownloadOutlined';
import type { Statement } from '@portal/services/contracts/audit';
import { api } from '../api/client';
import { getToken } from '../auth/token';
import { formatDateTime } from '../lib/dates';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';

/** Today on the company's calendar (Lagos, UTC+1). */
const lagosToday = () => new Date(Date.now() + 60 * 60 * 1000).toISOString().slice(0, 10);

async function downloadCsv(path: string, fallbackName: string): Promise<void> {
  const response = await fetch(`/api${path}`, { headers: { Authorization: `Bearer ${getToken() ?? ''}` } });
  if (!response.ok) throw new Error(((await response.json().catch(() => ({}))) as { message?: string }).message ?? 'The statement could not be downloaded.');
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  URL.revokeObjectURL(url);
}

const Figure = ({ label, value, testId }: { label: string; value: number; testId: string }) => (
  <Card variant="outlined">
    <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
      <Typography variant="caption" color="text.secondary">{label}</Typography>
      <Typography variant="h6" component="p" data-testid={testId} sx={{ fontVariantNumeric: 'tabular-nums' }}>{formatNaira(value)}</Typography>
    </CardContent>
  </Card>
);

/**
 * The member's own wallet statement for a period (docs/audit.md): opening balance, every credit and
 * debit with its cause, closing balance, downloadable as CSV. The same path the back office reads.
 */
export function WalletStatement({ memberId }: { memberId: string }) {
  const today = lagosToday();
  const [from, setFrom] = useState(`${today.slice(0, 7)}-01`);
  const [to, setTo] = useState(today);
  const path = `/wallet/${memberId}/statement?from=${from}&to=${to}`;
  const statement = useQuery({
    queryKey: ['wallet-statement', memberId, from, to],
    queryFn: async () => (await api.get<Statement>(path, { quiet: true })).data,
    enabled: Boolean(from && to),
    retry: false,
  });
  const s = statement.data;
  return (
    <Card component="section" aria-labelledby="statement-title">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="statement-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          Statement
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <TextField type="date" size="small" label="From" value={from} onChange={(e) => setFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField type="date" size="small" label="To" value={to} onChange={(e) => setTo(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <Button
            variant="outlined"
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            startIcon={<Download />}
            disabled={!s}
            onClick={() => downloadCsv(`${path}&format=csv`, `statement-${from}-${to}.csv`).catch((error: Error) => toast.error(error.message))}
          >
            Download CSV
          </Button>
        </Stack>
        {statement.isPending && from && to ? <Skeleton variant="rounded" height={120} /> : null}
        {statement.isError ? <Alert severity="error">{statement.error.message}</Alert> : null}
        {s ? (
          <>
            <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }, mb: 2 }}>
              <Figure label="Opening balance" value={s.opening_balance} testId="statement-opening" />
              <Figure label="Credits" value={s.total_credits} testId="statement-credits" />
              <Figure label="Debits" value={s.total_debits} testId="statement-debits" />
              <Figure label="Closing balance" value={s.closing_balance} testId="statement-closing" />
            </Box>
            {s.lines.length === 0 ? (
              <Alert severity="info">No money moved in this period.</Alert>
            ) : (
              <Stack spacing={1} data-testid="statement-lines">
                {s.lines.map((line) => (
                  <Box key={line.id} sx={{ borderBottom: 1, borderColor: 'divider', pb: 1 }}>
                    <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>{line.type}</Typography>
                      <Typography variant="body2" sx={{ fontWeight: 600, color: line.credit ? 'success.main' : 'error.main', whiteSpace: 'nowrap' }}>
                        {line.credit ? `+${formatNaira(line.credit)}` : `−${formatNaira(line.debit)}`}
                      </Typography>
                    </Stack>
                    <Typography variant="body2" color="text.secondary">{line.description}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {formatDateTime(line.recorded_at)} · balance {formatNaira(line.balance)}
                    </Typography>
                  </Box>
                ))}
              </Stack>
            )}
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
