import { useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, Chip, MenuItem, Skeleton, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import Grid from '@mui/material/Grid';
import PersonOutline from '@mui/icons-material/PersonOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PhotoCamera from '@mui/icons-material/PhotoCameraOutlined';
import Groups from '@mui/icons-material/GroupsOutlined';
import AccountBalance from '@mui/icons-material/AccountBalanceOutlined';
import { GENDERS, profileMessages, updateProfileFields, type MemberProfile } from '@portal/services/contracts/profile';
import { useMember } from '../auth/member-context';
import { profileApi } from '../api/profile';
import { queryKeys, useMemberProfile, useProfileDetails, useUpline } from '../api/queries';
import { MemberAvatar } from '@portal/web-shared/MemberAvatar';
import { BankAccountSummary, BankDetailsForm, bankEditable } from '../components/BankDetailsForm';
import { PackageUpgradeCard, UpgradeHistoryCard } from '../components/PackageUpgrade';
import { PlacementPreferenceCard } from '../components/PlacementPreferenceCard';
import { ACCEPTED_IMAGE_TYPES, imageContentProblem, imageProblem } from '../lib/images';
import { toast } from '../lib/notify';
import { storageUrl } from '../lib/storage';
import { usePreviewUrl } from '../lib/use-preview-url';

type ProfileInput = z.input<typeof updateProfileFields>;

const capitalise = (s: string | null | undefined) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : '');

function Detail({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <Box sx={{ py: 1.1, display: 'flex', justifyContent: 'space-between', gap: 2, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
      <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600, textAlign: 'right', wordBreak: 'break-word' }}>
        {value || '—'}
      </Typography>
    </Box>
  );
}

function CardTitle({ icon, title, id }: { icon: ReactNode; title: string; id: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
      {icon}
      <Typography id={id} variant="h6" component="h2">
        {title}
      </Typography>
    </Stack>
  );
}

function ProfileCard({ profile }: { profile: MemberProfile | undefined }) {
  const user = useMember();
  return (
    <Card data-testid="profile-card">
      <Box sx={{ height: 72, background: 'radial-gradient(circle at 90% 0%, rgba(159,224,184,0.35), transparent 55%), linear-gradient(135deg, #2f8a57 0%, #174a30 100%)' }} />
      <CardContent sx={{ p: { xs: 2.5, sm: 3 }, pt: 0 }}>
        <Box sx={{ mt: -5, mb: 1.5 }}>
          <MemberAvatar src={storageUrl(profile?.photo_path)} size={88} sx={{ border: '4px solid #fff', boxShadow: '0 2px 8px rgba(17,56,36,0.12)' }} />
        </Box>
        <Typography variant="h6" component="p" data-testid="profile-name">
          {profile ? `${profile.first_name} ${profile.last_name}` : `${user.first_name} ${user.last_name}`}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5, mb: 1.5, flexWrap: 'wrap', rowGap: 0.5 }}>
          <Typography variant="body2" color="text.secondary">
            @{user.username}
          </Typography>
          {profile?.package && <Chip size="small" color="primary" variant="outlined" label={profile.package} data-testid="profile-package" />}
        </Stack>
        {profile ? (
          <Box>
            <Detail label="Username" value={profile.username} />
            <Detail label="Email" value={profile.email} />
            <Detail label="Phone" value={profile.phone} />
            <Detail label="Address" value={profile.address} />
            <Detail label="Gender" value={capitalise(profile.gender)} />
          </Box>
        ) : (
          <Stack spacing={1}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={28} />
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

/** The sponsor (seed 000 §2.6); the company root has none, and then no card is shown. */
function UplineCard() {
  const user = useMember();
  const upline = useUpline(user.uuid);
  if (!upline.data) return null;
  const u = upline.data;
  return (
    <Card component="section" aria-labelledby="upline-title" data-testid="upline-card">
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<Groups color="primary" fontSize="small" />} title="Your upline" id="upline-title" />
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
          <MemberAvatar src={storageUrl(u.photo_path)} size={48} />
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 650 }} noWrap>
              {u.first_name} {u.last_name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              @{u.username}
            </Typography>
          </Box>
        </Stack>
        <Detail label="Email" value={u.email} />
        <Detail label="Package" value={u.package} />
      </CardContent>
    </Card>
  );
}

function EditProfileForm({ profile }: { profile: MemberProfile }) {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const preview = usePreviewUrl(image);

  const form = useForm<ProfileInput>({
    resolver: zodResolver(updateProfileFields),
    defaultValues: {
      first_name: profile.first_name,
      last_name: profile.last_name,
      phone: profile.phone,
      gender: (profile.gender ?? '') as ProfileInput['gender'],
      address: profile.address ?? '',
    },
  });
  const err = form.formState.errors;

  /** The photo chosen last: a slower content check of an earlier one must not take it away. */
  const latestPhoto = useRef<File | null>(null);
  const refusePhoto = (problem: string) => {
    toast.warning(problem);
    setImageError(problem);
    setImage(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  // Taken at once (a Save right after choosing sends it; the server reads its content again), then
  // dropped if its content is not an image after all.
  const choosePhoto = async (file: File | undefined) => {
    if (!file) return;
    const problem = imageProblem(file);
    if (problem) return refusePhoto(problem);
    setImageError(null);
    setImage(file);
    latestPhoto.current = file;
    const contentProblem = await imageContentProblem(file);
    if (contentProblem && latestPhoto.current === file) refusePhoto(contentProblem);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const body = { ...values, image };
    try {
      let res;
      if (profile.has_profile) {
        res = await profileApi.updateProfile(profile.uuid, body);
      } else {
        // The first profile is created; names are not part of that call, so they follow separately.
        res = await profileApi.createProfile(body);
        if (values.first_name !== profile.first_name || values.last_name !== profile.last_name) {
          res = await profileApi.updateUser(profile.uuid, { first_name: values.first_name, last_name: values.last_name, phone: values.phone });
        }
      }
      toast.success(res.message || profileMessages.dataUpdated);
      setImage(null);
      if (fileInput.current) fileInput.current.value = '';
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.profile(profile.uuid) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.me }),
      ]);
    } catch {
      /* shown by the client */
    }
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label="Edit profile">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 3 }}>
        <MemberAvatar src={preview ?? storageUrl(profile.photo_path)} size={72} />
        <Box>
          <input ref={fileInput} type="file" name="image" accept={ACCEPTED_IMAGE_TYPES} hidden aria-label="Profile photo" onChange={(e) => void choosePhoto(e.target.files?.[0])} />
          <Button variant="outlined" size="small" startIcon={<PhotoCamera />} onClick={() => fileInput.current?.click()}>
            {profile.photo_path || image ? 'Change photo' : 'Add a photo'}
          </Button>
          <Typography variant="caption" color={imageError ? 'error' : 'text.secondary'} sx={{ display: 'block', mt: 0.75 }}>
            {imageError ?? (image ? `${image.name} will be saved with your profile.` : 'JPEG, PNG or WebP, up to 500 kB.')}
          </Typography>
        </Box>
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField label="First name" required autoComplete="given-name" {...form.register('first_name')} error={!!err.first_name} helperText={err.first_name?.message} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField label="Last name" required autoComplete="family-name" {...form.register('last_name')} error={!!err.last_name} helperText={err.last_name?.message} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField label="Email" value={profile.email} slotProps={{ input: { readOnly: true } }} helperText="Your e-mail address cannot be changed here." />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField label="Phone" required type="tel" autoComplete="tel" {...form.register('phone')} error={!!err.phone} helperText={err.phone?.message} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Controller
            control={form.control}
            name="gender"
            render={({ field, fieldState }) => (
              <TextField
                select
                required
                label="Gender"
                name={field.name}
                inputRef={field.ref}
                value={field.value ?? ''}
                onChange={(e) => field.onChange(e.target.value)}
                onBlur={field.onBlur}
                error={!!fieldState.error}
                helperText={fieldState.error?.message}
                data-testid="gender-select"
              >
                {GENDERS.map((g) => (
                  <MenuItem key={g} value={g}>
                    {capitalise(g)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <Grid size={12}>
          <TextField label="Address" required multiline minRows={2} autoComplete="street-address" {...form.register('address')} error={!!err.address} helperText={err.address?.message} />
        </Grid>
      </Grid>
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 2.5 }}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} sx={{ width: { xs: '100%', sm: 'auto' } }}>
          {form.formState.isSubmitting ? 'Saving…' : 'Save profile'}
        </Button>
      </Stack>
    </Box>
  );
}

function MyProfileTab() {
  const user = useMember();
  const profile = useMemberProfile(user.uuid);
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 5, lg: 4 }}>
        <Stack spacing={3}>
          <ProfileCard profile={profile.data} />
          <UplineCard />
          <PlacementPreferenceCard />
        </Stack>
      </Grid>
      <Grid size={{ xs: 12, md: 7, lg: 8 }}>
        <Stack spacing={3}>
          <Card component="section" aria-labelledby="edit-profile-title">
            <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
              <CardTitle icon={<EditOutlined color="primary" fontSize="small" />} title="Edit profile" id="edit-profile-title" />
              {profile.data ? (
                <EditProfileForm key={`${profile.data.has_profile}`} profile={profile.data} />
              ) : profile.isError ? (
                <Alert severity="error">Your profile could not be loaded.</Alert>
              ) : (
                <Skeleton variant="rounded" height={320} />
              )}
            </CardContent>
          </Card>
          <PackageUpgradeCard />
        </Stack>
      </Grid>
      <Grid size={12}>
        <UpgradeHistoryCard />
      </Grid>
    </Grid>
  );
}

function BankDetailsTab() {
  const user = useMember();
  const details = useProfileDetails(user.uuid);
  const editable = bankEditable(details.data);
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 5, lg: 4 }}>
        <Card component="section" aria-labelledby="withdrawal-account-title" sx={{ height: '100%' }}>
          <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
            <CardTitle icon={<AccountBalance color="primary" fontSize="small" />} title="Withdrawal account" id="withdrawal-account-title" />
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              Your withdrawals are paid into this account.
            </Typography>
            <BankAccountSummary details={details.data} loading={details.isPending} />
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 7, lg: 8 }}>
        <Card component="section" aria-labelledby="edit-bank-title">
          <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
            <CardTitle icon={<EditOutlined color="primary" fontSize="small" />} title="Edit bank details" id="edit-bank-title" />
            {editable && !details.isPending && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
                Choose your bank, enter your account number and verify it: the account name comes from your bank. Once saved, further changes need an
                administrator’s permission.
              </Typography>
            )}
            <BankDetailsForm memberId={user.uuid} details={details.data} loading={details.isPending} />
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}

const TABS = [
  { key: 'profile', label: 'My Profile' },
  { key: 'bank', label: 'Bank Details' },
] as const;

export default function ProfilePage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'bank' ? 'bank' : 'profile';
  return (
    <>
      <Box sx={{ mb: { xs: 2, sm: 3 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <PersonOutline color="primary" />
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
            Profile
          </Typography>
        </Stack>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Your details, your package and the bank account your withdrawals are paid into.
        </Typography>
      </Box>
      <Tabs
        value={tab}
        onChange={(_e, value: string) => setParams(value === 'profile' ? {} : { tab: value }, { replace: true })}
        aria-label="Profile sections"
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((t) => (
          <Tab key={t.key} value={t.key} label={t.label} id={`profile-tab-${t.key}`} aria-controls={`profile-panel-${t.key}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`profile-panel-${tab}`} aria-labelledby={`profile-tab-${tab}`}>
        {tab === 'profile' ? <MyProfileTab /> : <BankDetailsTab />}
      </Box>
    </>
  );
}
