import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Box, Button, Card, CardContent, Divider, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import PersonAddAlt from '@mui/icons-material/PersonAddAltOutlined';
import ContentCopy from '@mui/icons-material/ContentCopyOutlined';
import Check from '@mui/icons-material/Check';
import Send from '@mui/icons-material/SendOutlined';
import { profileMessages } from '@portal/services/contracts/profile-messages';
import { useMember } from '../../auth/member-context';
import { earningsApi } from '../../api/earnings';
import { toast } from '../../lib/notify';
import { referralLink } from '../../lib/referral-link';
import { copyText } from '../../lib/clipboard';
import { lazyResolver, loadWhenTouched } from '../../lib/lazy-resolver';
import { CardTitle } from './common';
import type { InviteForm } from './invite-form';

/** Seed 000 §8 wording. */
const LINK_COPIED = 'Referral Link Copied';

// ── Invite a friend and the referral link ────────────────────────────────────────────────

/** The form's zod schema (./invite-form.ts) loads when the member turns to the form: zod is not on the dashboard's first screen. */
const inviteResolver = lazyResolver<InviteForm>(async () => (await import('./invite-form')).inviteResolver);

export function InviteCard() {
  const user = useMember();
  const [placement, setPlacement] = useState('');
  const [copied, setCopied] = useState(false);
  const link = referralLink(window.location.origin, user.username, placement);
  useEffect(() => setCopied(false), [link]);

  const form = useForm<InviteForm>({ resolver: inviteResolver, defaultValues: { email: '' } });
  const onInvite = form.handleSubmit(async ({ email }) => {
    try {
      const res = await earningsApi.inviteGuest(user.uuid, { email, referrer: placement.trim() || null });
      toast.success(res.message || profileMessages.friendInvited);
      form.reset({ email: '' });
    } catch {
      /* shown by the client */
    }
  });

  const copy = async () => {
    if (await copyText(link)) setCopied(true);
    else toast.warning('Copy the link by hand: your browser did not allow copying.');
  };

  return (
    <Card component="section" aria-labelledby="invite-title" data-testid="invite-card" sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<PersonAddAlt color="primary" fontSize="small" />} title="Invite a friend" id="invite-title" />
        <TextField
          label="Placement (optional)"
          size="small"
          name="placement"
          value={placement}
          onChange={(e) => setPlacement(e.target.value)}
          autoComplete="off"
          helperText="A member of your downline to place your friend under. You remain their sponsor."
          slotProps={{ input: { startAdornment: <InputAdornment position="start">@</InputAdornment> } }}
          sx={{ mb: 2 }}
        />
        <Box component="form" noValidate onSubmit={onInvite} aria-label="Invite a friend" {...loadWhenTouched(inviteResolver)}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.25} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label="Friend's email"
              type="email"
              size="small"
              required
              autoComplete="off"
              {...form.register('email')}
              error={!!form.formState.errors.email}
              helperText={form.formState.errors.email?.message}
            />
            <Button type="submit" variant="contained" startIcon={<Send />} disabled={form.formState.isSubmitting} sx={{ flexShrink: 0, height: 40 }}>
              {form.formState.isSubmitting ? 'Sending…' : 'Invite'}
            </Button>
          </Stack>
        </Box>
        <Divider sx={{ my: 2.5 }} />
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          Your referral link
        </Typography>
        <Box
          data-testid="referral-link"
          sx={{
            px: 1.5,
            py: 1.1,
            mb: 1.25,
            borderRadius: 2,
            bgcolor: '#f4f7f5',
            border: '1px dashed #cfdcd4',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
            fontSize: '0.85rem',
            overflowWrap: 'anywhere',
          }}
        >
          {link}
        </Box>
        <Button variant={copied ? 'contained' : 'outlined'} color={copied ? 'success' : 'primary'} startIcon={copied ? <Check /> : <ContentCopy />} onClick={copy} data-testid="copy-referral-link">
          {copied ? LINK_COPIED : 'Copy Referral Link'}
        </Button>
      </CardContent>
    </Card>
  );
}
