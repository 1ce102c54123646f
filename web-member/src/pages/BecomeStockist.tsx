import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Accordion, AccordionDetails, AccordionSummary, Alert, Box, Card, CardContent, FormControl, InputLabel, MenuItem, Select, Stack, TextField, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useMember } from '../auth/member-context';
import { queryKeys } from '../api/queries';
import { NIGERIAN_STATES, stockistApi, useCompanyBanks, useMyStockist, useStockistPackages } from '../api/stockists';
import { ReceiptUpload } from '../components/ReceiptUpload';
import { StatusChip } from '../components/ProductCart';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';

export function CompanyBanks() {
  const banks = useCompanyBanks();
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>Pay into</Typography>
        <Stack spacing={1}>
          {(banks.data ?? []).map((b) => (
            <Box key={b.id} sx={{ p: 1.5, borderRadius: 2, bgcolor: 'action.hover' }}>
              <Typography sx={{ fontWeight: 600 }}>{b.bank_name}</Typography>
              <Typography variant="body2">{b.bank_account_name} · {b.bank_account_number}</Typography>
            </Box>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}

export function StoreFields({ value, onChange }: { value: Record<string, string>; onChange: (v: Record<string, string>) => void }) {
  const set = (key: string) => (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value });
  return (
    <>
      <TextField label="Store name" value={value.store_name ?? ''} onChange={set('store_name')} required fullWidth />
      <TextField label="Store address" value={value.store_address ?? ''} onChange={set('store_address')} required fullWidth />
      <FormControl fullWidth required>
        <InputLabel id="store-state">State</InputLabel>
        <Select labelId="store-state" label="State" value={value.store_state ?? ''} onChange={(e) => onChange({ ...value, store_state: e.target.value })}>
          {NIGERIAN_STATES.map((s) => <MenuItem key={s} value={s.toLowerCase()}>{s}</MenuItem>)}
        </Select>
      </FormControl>
      <TextField label="Store phone" value={value.store_phone ?? ''} onChange={set('store_phone')} required fullWidth />
    </>
  );
}

/** Become a Stockist (seed 000 §2.12): disclaimer, form, live preview, company banks and receipt. */
export default function BecomeStockistPage() {
  const user = useMember();
  const queryClient = useQueryClient();
  const packages = useStockistPackages();
  const mine = useMyStockist(user.uuid);
  const [form, setForm] = useState<Record<string, string>>({ store_name: '', store_address: '', store_state: '', store_phone: '', package_id: '', referrer: '' });
  const chosen = packages.data?.find((p) => String(p.id) === form.package_id);

  const submit = async (receipt: File) => {
    const required: Array<[string, string]> = [['store_name', 'store name'], ['store_address', 'store address'], ['store_state', 'state'], ['store_phone', 'store phone'], ['package_id', 'stockist package'], ['referrer', 'signee']];
    for (const [key, label] of required) {
      if (!form[key]) { toast.warning(`The ${label} is required.`); return false; }
    }
    const body = new FormData();
    for (const [key, value] of Object.entries(form)) body.append(key, value);
    body.append('payment_receipt', receipt);
    try {
      const res = await stockistApi.apply(body);
      toast.success(res.message);
      await queryClient.invalidateQueries({ queryKey: ['stockist'] });
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      return true;
    } catch {
      return false;
    }
  };

  if (mine.data && mine.data.status !== 'disapproved') {
    return (
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>Your stockist application</Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography>{mine.data.store_name} · {mine.data.stockist_package}</Typography>
            <StatusChip status={mine.data.status} />
          </Stack>
          {mine.data.status === 'pending' && <Alert severity="info" sx={{ mt: 2 }}>Your application awaits an administrator's approval.</Alert>}
        </CardContent>
      </Card>
    );
  }

  return (
    <Stack spacing={2}>
      <Accordion>
        <AccordionSummary expandIcon={<ExpandMore />}><Typography sx={{ fontWeight: 600 }}>Disclaimer</Typography></AccordionSummary>
        <AccordionDetails>
          <Typography variant="body2">On termination of a stockist agreement, up to 70% of the initial capital may be refunded at the company's discretion.</Typography>
        </AccordionDetails>
      </Accordion>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2 }}>
        <Card>
          <CardContent>
            <Typography variant="h6" gutterBottom>Stockist registration</Typography>
            <Stack spacing={2}>
              <StoreFields value={form} onChange={setForm} />
              <FormControl fullWidth required>
                <InputLabel id="stockist-package">Stockist package</InputLabel>
                <Select labelId="stockist-package" label="Stockist package" value={form.package_id} onChange={(e) => setForm({ ...form, package_id: String(e.target.value) })}>
                  {(packages.data ?? []).map((p) => <MenuItem key={p.id} value={String(p.id)}>{p.name} — {formatNaira(p.registration_value)}</MenuItem>)}
                </Select>
              </FormControl>
              <TextField label="Signee (username or e-mail)" value={form.referrer} onChange={(e) => setForm({ ...form, referrer: e.target.value })} required fullWidth />
              <ReceiptUpload onUpload={submit} buttonLabel="Submit application" hint={chosen ? `Transfer ${formatNaira(chosen.registration_value)} and upload the receipt.` : 'Choose a package, transfer its price and upload the receipt.'} />
            </Stack>
          </CardContent>
        </Card>
        <Stack spacing={2}>
          <Card data-testid="stockist-preview">
            <CardContent>
              <Typography variant="overline">Preview</Typography>
              <Typography variant="h6">{form.store_name || 'Store name'}</Typography>
              <Typography variant="body2">{form.store_address || 'Address'}</Typography>
              <Typography variant="body2" sx={{ textTransform: 'capitalize' }}>{form.store_state || 'State'}</Typography>
              <Typography variant="body2">Package: {chosen?.name ?? '—'}</Typography>
              <Typography variant="body2">Contact: {form.store_phone || '—'}</Typography>
              <Typography variant="body2">Signee: {form.referrer || '—'}</Typography>
            </CardContent>
          </Card>
          <CompanyBanks />
        </Stack>
      </Box>
    </Stack>
  );
}
