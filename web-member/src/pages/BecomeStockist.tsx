import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { Accordion, AccordionDetails, AccordionSummary, Alert, Box, Card, CardContent, FormControl, InputLabel, MenuItem, Select, Stack, TextField, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useMember } from '../auth/member-context';
import { queryKeys } from '../api/queries';
import { NIGERIAN_STATES, stockistApi, useCompanyBanks, useMyStockist, useStockistPackages } from '../api/stockists';
import { ReceiptUpload } from '../components/ReceiptUpload';
import { StatusChip } from '../components/ProductCart';
import { formatNaira } from '../lib/money';
import { lazyResolver, loadWhenTouched } from '../lib/lazy-resolver';
import { toast } from '../lib/notify';
import type { StockistForm } from './stockist-form';

const stockistResolver = lazyResolver<StockistForm>(async () => (await import('./stockist-form')).stockistResolver);

/** The api's lengths (contracts/stockists.ts stockistApplicationFields): longer text is not typed in at all. */
export const STORE_LIMITS = { store_name: 200, store_address: 500, store_phone: 20, referrer: 120 } as const;

/** A long word (a pasted name, an address without spaces) wraps inside its card instead of widening the page. */
export const wrapAnywhere = { overflowWrap: 'anywhere' } as const;

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
      <TextField label="Store name" value={value.store_name ?? ''} onChange={set('store_name')} required fullWidth slotProps={{ htmlInput: { maxLength: STORE_LIMITS.store_name } }} />
      <TextField label="Store address" value={value.store_address ?? ''} onChange={set('store_address')} required fullWidth slotProps={{ htmlInput: { maxLength: STORE_LIMITS.store_address } }} />
      <FormControl fullWidth required>
        <InputLabel id="store-state">State</InputLabel>
        <Select labelId="store-state" label="State" value={value.store_state ?? ''} onChange={(e) => onChange({ ...value, store_state: e.target.value })}>
          {NIGERIAN_STATES.map((s) => <MenuItem key={s} value={s.toLowerCase()}>{s}</MenuItem>)}
        </Select>
      </FormControl>
      <TextField label="Store phone" value={value.store_phone ?? ''} onChange={set('store_phone')} required fullWidth slotProps={{ htmlInput: { maxLength: STORE_LIMITS.store_phone } }} />
    </>
  );
}

/** One text field of the application, its error (or the helper) under it. */
function ApplicationText({ control, name, label, helper }: { control: Control<StockistForm>; name: keyof typeof STORE_LIMITS; label: string; helper?: (value: string) => string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          label={label}
          required
          fullWidth
          name={field.name}
          inputRef={field.ref}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={fieldState.error?.message ?? helper?.(field.value)}
          slotProps={{ htmlInput: { maxLength: STORE_LIMITS[name] } }}
        />
      )}
    />
  );
}

/** One choice of the application (state, package), its error under it. */
function ApplicationSelect({ control, name, label, options }: { control: Control<StockistForm>; name: 'store_state' | 'package_id'; label: string; options: Array<{ value: string; label: string }> }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={label}
          required
          fullWidth
          name={field.name}
          inputRef={field.ref}
          value={options.some((o) => o.value === field.value) ? field.value : ''}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
        >
          {options.map((o) => <MenuItem key={o.value} value={o.value}>{o.label}</MenuItem>)}
        </TextField>
      )}
    />
  );
}

/** Become a Stockist (seed 000 §2.12): disclaimer, form, live preview, company banks and receipt. */
export default function BecomeStockistPage() {
  const user = useMember();
  const queryClient = useQueryClient();
  const packages = useStockistPackages();
  const mine = useMyStockist(user.uuid);
  const { control, handleSubmit, getValues } = useForm<StockistForm>({
    resolver: stockistResolver,
    defaultValues: { store_name: '', store_address: '', store_state: '', store_phone: '', package_id: '', referrer: '' },
  });
  const form = useWatch({ control });
  const chosen = packages.data?.find((p) => String(p.id) === form.package_id);

  // Checked as a submit, so each field's error then follows its edits (react-hook-form revalidates after a submit).
  const check = () => new Promise<boolean>((resolve) => void handleSubmit(() => resolve(true), () => resolve(false))());

  const submit = async (receipt: File) => {
    const body = new FormData();
    for (const [key, value] of Object.entries(getValues())) body.append(key, value);
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
            <Stack spacing={2} {...loadWhenTouched(stockistResolver)}>
              <ApplicationText control={control} name="store_name" label="Store name" helper={(v) => `${v.length.toLocaleString('en-US')} of ${STORE_LIMITS.store_name} characters`} />
              <ApplicationText control={control} name="store_address" label="Store address" />
              <ApplicationSelect control={control} name="store_state" label="State" options={NIGERIAN_STATES.map((s) => ({ value: s.toLowerCase(), label: s }))} />
              <ApplicationText control={control} name="store_phone" label="Store phone" />
              <ApplicationSelect control={control} name="package_id" label="Stockist package" options={(packages.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} — ${formatNaira(p.registration_value)}` }))} />
              <ApplicationText control={control} name="referrer" label="Signee (username or e-mail)" />
              <ReceiptUpload
                onUpload={submit}
                check={check}
                buttonLabel="Submit application"
                hint={chosen ? `Transfer ${formatNaira(chosen.registration_value)} and upload the receipt.` : 'Choose a package, transfer its price and upload the receipt.'}
              />
            </Stack>
          </CardContent>
        </Card>
        <Stack spacing={2}>
          <Card data-testid="stockist-preview">
            <CardContent sx={wrapAnywhere}>
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
