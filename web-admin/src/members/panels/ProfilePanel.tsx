import { Alert, Avatar, Box, Stack, Typography } from '@mui/material';
import { SaveButton, SelectInput, SimpleForm, TextInput, Toolbar, maxLength, regex, required, useTranslate } from 'react-admin';
import type { UplineDetails } from '@portal/services/contracts/genealogy';
import { ActiveOnly, Line, Loaded, Section, useCanWrite, useMember, useMemberCommand } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { storageUrl } from '../storage';

const genders = [
  { id: 'male', name: 'pos.members.profile.male' },
  { id: 'female', name: 'pos.members.profile.female' },
];
const validateName = [required(), maxLength(100)];
const validatePhone = [required(), regex(/^\+?[0-9 ()-]{7,20}$/, 'pos.members.validation.phone')];
const validateAddress = [required(), maxLength(500)];

type ProfileValues = { first_name: string; last_name: string; phone: string; gender: 'male' | 'female' | null; address: string | null };

const Upline = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const upline = usePortalQuery<UplineDetails | null>(`/users/${member.id}/upline-details`);
  return (
    <Section title="pos.members.profile.upline" testId="upline-card">
      <Loaded query={upline}>
        {() =>
          upline.data ? (
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Avatar src={storageUrl(upline.data.photo_path)} sx={{ width: 48, height: 48 }}>
                {upline.data.first_name.charAt(0)}
              </Avatar>
              <Box sx={{ flex: 1 }}>
                <Line label="resources.members.fields.full_name" value={`${upline.data.first_name} ${upline.data.last_name}`} />
                <Line label="resources.members.fields.username" value={`@${upline.data.username}`} />
                <Line label="resources.members.fields.email" value={upline.data.email} />
                <Line label="resources.members.fields.package_name" value={upline.data.package} />
              </Box>
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {translate('pos.members.profile.no_upline')}
            </Typography>
          )
        }
      </Loaded>
    </Section>
  );
};

/**
 * Seed 001 §2.11 item 2 (My Profile): the summary card, the edit form (e-mail read-only) saved
 * through POST /api/users/{id}/update-profile (names, phone, gender, address; the member's own path,
 * open to admins), and the upline card.
 */
const Profile = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const canWrite = useCanWrite();
  const command = useMemberCommand();
  const save = (values: Record<string, unknown>) => {
    const v = values as ProfileValues;
    return command.mutateAsync({
      method: 'POST',
      path: `/users/${member.id}/update-profile`,
      body: { first_name: v.first_name, last_name: v.last_name, phone: v.phone, gender: v.gender, address: v.address },
    }).catch(() => undefined);
  };
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, alignItems: 'start' }}>
      <Box>
        <Section title="pos.members.profile.summary" testId="profile-summary">
          {member.has_profile ? null : (
            <Alert severity="info" sx={{ mb: 2 }}>
              {translate('pos.members.profile.no_profile')}
            </Alert>
          )}
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Avatar src={storageUrl(member.photo_path)} sx={{ width: 72, height: 72, fontSize: 28 }}>
              {member.first_name.charAt(0)}
            </Avatar>
            <Box sx={{ flex: 1 }}>
              <Line label="resources.members.fields.package_name" value={member.package_name} />
              <Line label="resources.members.fields.full_name" value={member.full_name} />
              <Line label="resources.members.fields.phone" value={member.phone} />
              <Line label="resources.members.fields.email" value={member.email} />
              <Line label="resources.members.fields.username" value={`@${member.username}`} />
              <Line label="resources.members.fields.gender" value={member.gender ? translate(`pos.members.profile.${member.gender}`) : null} />
              <Line label="resources.members.fields.address" value={member.address} />
            </Box>
          </Stack>
        </Section>
        <Upline />
      </Box>
      {canWrite ? (
        <Section title="pos.members.profile.edit" testId="profile-edit">
          <SimpleForm
            record={{ id: member.id, first_name: member.first_name, last_name: member.last_name, phone: member.phone, email: member.email, gender: member.gender, address: member.address }}
            onSubmit={save}
            sx={{ p: 0 }}
            toolbar={
              <Toolbar sx={{ px: 0 }}>
                <SaveButton label="pos.members.profile.submit" />
              </Toolbar>
            }
          >
            <TextInput source="first_name" label="resources.members.fields.first_name" validate={validateName} fullWidth />
            <TextInput source="last_name" label="resources.members.fields.last_name" validate={validateName} fullWidth />
            <TextInput source="phone" label="resources.members.fields.phone" validate={validatePhone} fullWidth />
            <TextInput source="email" label="resources.members.fields.email" readOnly fullWidth helperText={false} />
            <SelectInput source="gender" label="resources.members.fields.gender" choices={genders} validate={required()} fullWidth />
            <TextInput source="address" label="resources.members.fields.address" validate={validateAddress} multiline minRows={2} fullWidth />
          </SimpleForm>
        </Section>
      ) : null}
    </Box>
  );
};

export const ProfilePanel = () => (
  <ActiveOnly>
    <Profile />
  </ActiveOnly>
);
