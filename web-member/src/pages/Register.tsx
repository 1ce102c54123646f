import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Alert,
  Divider,
  FormControlLabel,
  FormHelperText,
  InputAdornment,
  Link,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import Grid from '@mui/material/Grid';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import { registerBody } from '@portal/services/contracts/auth';
import { authApi } from '../api/auth';
import { ApiError } from '../api/client';
import { usePackages } from '../api/queries';
import { AuthLayout } from '../layout/AuthLayout';
import { PasswordField } from '../components/PasswordField';
import { AppLink } from '../components/FormLinks';
import { TermsText } from '../content/legal';
import { formatNaira } from '../lib/money';
import { toast } from '../lib/notify';

export const PLACEMENT_HINT =
  'Leave it as your link filled it: if that member already has two direct placements, you are placed automatically in their team. Or name a member of your sponsor\'s team.';

/** The value after it has stopped changing for `ms` (the placement preview asks once per pause in typing). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Where the new member will be placed, asked of the server with the same rule the registration uses. */
function usePlacementPreview(referrer: string, placer: string) {
  const query = useDebounced({ referrer: referrer.trim(), placer: placer.trim() }, 350);
  return useQuery({
    queryKey: ['auth', 'placement-preview', query.referrer, query.placer],
    queryFn: async ({ signal }) => (await authApi.placementPreview(query, signal)).data,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 10_000,
  });
}

const registerForm = registerBody.extend({
  terms: z.boolean().refine((v) => v, 'You must accept the terms and conditions.'),
});
type RegisterFormInput = z.input<typeof registerForm>;
type RegisterFormOutput = z.output<typeof registerForm>;

export default function RegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [termsOpen, setTermsOpen] = useState(false);
  const packages = usePackages();

  const form = useForm<RegisterFormInput, unknown, RegisterFormOutput>({
    resolver: zodResolver(registerForm),
    defaultValues: {
      first_name: '',
      last_name: '',
      username: '',
      password: '',
      email: '',
      phone: '',
      referrer: params.get('ref') ?? '',
      placer: params.get('placer') ?? '',
      package_id: '',
      terms: false,
    },
  });
  const { register, control, formState, setValue } = form;
  const err = formState.errors;
  const [referrer = '', placer = ''] = useWatch({ control, name: ['referrer', 'placer'] });
  const preview = usePlacementPreview(referrer ?? '', placer ?? '');
  const previewError = preview.error instanceof ApiError ? preview.error : null;
  const previewFieldError = (field: 'referrer' | 'placer'): string | undefined => {
    const body = previewError?.body as { errors?: Record<string, string[]> } | undefined;
    return body?.errors?.[field]?.[0];
  };

  const onSubmit = form.handleSubmit(async ({ terms: _terms, ...body }) => {
    try {
      const res = await authApi.register(body);
      toast.success(res.message || 'Account created successfully and a confirmation code has been sent to your email');
      navigate(`/email-confirmation?email=${encodeURIComponent(body.email)}`);
    } catch {
      /* shown by the client */
    }
  });

  const field = (name: 'first_name' | 'last_name' | 'username' | 'email' | 'phone', label: string, extra: object = {}) => (
    <TextField
      label={label}
      required
      {...register(name)}
      error={!!err[name]}
      helperText={err[name]?.message}
      {...extra}
    />
  );

  return (
    <AuthLayout wide title="Create your account" subtitle="Join the network in a few steps. Fields marked * are required.">
      <Box component="form" noValidate onSubmit={onSubmit} aria-label="Register">
        <Typography variant="overline" color="text.secondary">
          Your details
        </Typography>
        <Grid container spacing={2} sx={{ mt: 0.5, mb: 3 }}>
          <Grid size={{ xs: 12, sm: 6 }}>{field('first_name', 'First name', { autoComplete: 'given-name', autoFocus: true })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{field('last_name', 'Last name', { autoComplete: 'family-name' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{field('email', 'Email', { type: 'email', autoComplete: 'email' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{field('phone', 'Phone', { type: 'tel', autoComplete: 'tel', placeholder: '+234 803 000 0000' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{field('username', 'Username', { autoComplete: 'username' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <PasswordField
              label="Password"
              required
              autoComplete="new-password"
              {...register('password')}
              error={!!err.password}
              helperText={err.password?.message ?? 'At least 8 characters.'}
            />
          </Grid>
        </Grid>

        <Typography variant="overline" color="text.secondary">
          Your network
        </Typography>
        <Grid container spacing={2} sx={{ mt: 0.5, mb: 3 }}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <Tooltip title={PLACEMENT_HINT} placement="top" arrow describeChild>
              <TextField
                label="Placement"
                {...register('referrer')}
                error={!!err.referrer || !!previewFieldError('referrer')}
                helperText={err.referrer?.message ?? previewFieldError('referrer') ?? 'Username of the member you go under.'}
                slotProps={{
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <InfoOutlined fontSize="small" color="action" aria-hidden />
                      </InputAdornment>
                    ),
                  },
                }}
              />
            </Tooltip>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label="Sponsor"
              {...register('placer')}
              error={!!err.placer || !!previewFieldError('placer')}
              helperText={err.placer?.message ?? previewFieldError('placer') ?? 'Optional: the member who referred you, if not the member in Placement.'}
            />
          </Grid>
          {preview.data && !previewError && (
            <Grid size={12}>
              <Alert severity={preview.data.spillover ? 'info' : 'success'} data-testid="placement-preview" aria-live="polite">
                {preview.data.explanation}
              </Alert>
            </Grid>
          )}
          <Grid size={12}>
            <Controller
              control={control}
              name="package_id"
              render={({ field: f, fieldState }) => (
                <TextField
                  select
                  required
                  label="Package"
                  name={f.name}
                  inputRef={f.ref}
                  value={f.value === undefined || f.value === null ? '' : String(f.value)}
                  onChange={(e) => f.onChange(e.target.value)}
                  onBlur={f.onBlur}
                  disabled={packages.isPending}
                  error={!!fieldState.error || packages.isError}
                  helperText={
                    fieldState.error?.message ??
                    (packages.isPending ? 'Loading packages…' : packages.isError ? 'Packages could not be loaded.' : 'Choose your registration package.')
                  }
                  slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
                  data-testid="package-select"
                >
                  {(packages.data ?? []).map((p) => (
                    <MenuItem key={p.id} value={String(p.id)}>
                      <Box sx={{ display: 'flex', justifyContent: 'space-between', width: '100%', gap: 2 }}>
                        <span>{p.name}</span>
                        <Typography component="span" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                          {formatNaira(p.registration_value)}
                        </Typography>
                      </Box>
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Grid>
        </Grid>

        <Controller
          control={control}
          name="terms"
          render={({ field: f, fieldState }) => (
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={!!f.value}
                    onChange={(e) => f.onChange(e.target.checked)}
                    onBlur={f.onBlur}
                    inputRef={f.ref}
                    slotProps={{ input: { 'aria-label': 'I accept the terms and conditions' } }}
                  />
                }
                label={
                  <Typography variant="body2">
                    I have read and accept the{' '}
                    <Link
                      component="button"
                      type="button"
                      variant="body2"
                      sx={{ verticalAlign: 'baseline' }}
                      onClick={(e: React.MouseEvent) => {
                        e.preventDefault();
                        setTermsOpen(true);
                      }}
                    >
                      terms and conditions
                    </Link>
                  </Typography>
                }
              />
              {fieldState.error && <FormHelperText error sx={{ mt: 0, ml: 4 }}>{fieldState.error.message}</FormHelperText>}
            </Box>
          )}
        />

        <Button type="submit" variant="contained" size="large" fullWidth disabled={formState.isSubmitting} sx={{ mt: 2.5 }}>
          {formState.isSubmitting ? 'Creating account…' : 'Register'}
        </Button>
      </Box>

      <Divider sx={{ my: 3 }} />
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
        Already have an account? <AppLink to="/login">Login</AppLink>
      </Typography>

      <Dialog open={termsOpen} onClose={() => setTermsOpen(false)} scroll="paper" maxWidth="sm" fullWidth aria-labelledby="terms-title">
        <DialogTitle id="terms-title">Terms and conditions</DialogTitle>
        <DialogContent dividers>
          <TermsText />
          <Typography variant="body2">
            How we handle your data is described in our{' '}
            <Link href="/privacy-policy" target="_blank" rel="noopener">
              privacy policy
            </Link>
            .
          </Typography>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button color="inherit" onClick={() => setTermsOpen(false)}>
            Close
          </Button>
          <Stack direction="row">
            <Button
              variant="contained"
              onClick={() => {
                setValue('terms', true, { shouldValidate: true });
                setTermsOpen(false);
              }}
            >
              Accept
            </Button>
          </Stack>
        </DialogActions>
      </Dialog>
    </AuthLayout>
  );
}
