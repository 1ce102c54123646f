import { useState } from 'react';
import { Card, CardContent, CardHeader, FormControlLabel, Skeleton, Switch } from '@mui/material';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import MailIcon from '@mui/icons-material/MailOutline';
import { Form, SaveButton, TextInput, useTranslate } from 'react-admin';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { frontPageMessageForm, generalMessageForm } from '@portal/services/contracts/settings';

/** The server's rule (contracts/settings.ts): a subject and a text, or neither; shown at the field. */
const generalMessageResolver = zodResolver(generalMessageForm) as unknown as Resolver<FieldValues>;
const frontPageMessageResolver = zodResolver(frontPageMessageForm) as unknown as Resolver<FieldValues>;
import { useSettings, useUpdateSettings } from '../settings/useSettings';

const text = (values: Record<string, unknown>, name: string) => String(values[name] ?? '');

/** Seed 001 §3.9: the front-page message (subject, message) and the switch that shows it before sign-in. */
export const FrontPageMessageCard = () => {
  const translate = useTranslate();
  const { data: settings, isPending } = useSettings();
  const save = useUpdateSettings();
  const [switching, setSwitching] = useState(false);

  const toggle = async (show: boolean) => {
    setSwitching(true);
    await save({ show_front_page_message: show });
    setSwitching(false);
  };

  return (
    <Card sx={{ flex: 1 }} data-testid="front-page-message">
      <CardHeader
        avatar={<CampaignIcon color="secondary" />}
        title={translate('pos.dashboard.messages.front_page.title')}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        sx={{ pb: 0 }}
      />
      <CardContent>
        {isPending || !settings ? (
          <Skeleton variant="rounded" height={220} />
        ) : (
          <>
            <FormControlLabel
              control={
                <Switch
                  checked={settings.show_front_page_message}
                  disabled={switching}
                  onChange={(event) => void toggle(event.target.checked)}
                  name="show_front_page_message"
                />
              }
              label={translate('pos.dashboard.messages.front_page.show')}
              sx={{ mb: 1 }}
            />
            <Form
              key={`front-${settings.home_page_message_subject}-${settings.home_page_message}`}
              defaultValues={{ home_page_message_subject: settings.home_page_message_subject, home_page_message: settings.home_page_message }}
              resolver={frontPageMessageResolver}
              onSubmit={async (values: Record<string, unknown>) => {
                await save({ home_page_message_subject: text(values, 'home_page_message_subject'), home_page_message: text(values, 'home_page_message') });
              }}
              noValidate
            >
              <TextInput source="home_page_message_subject" label="pos.dashboard.messages.front_page.subject" fullWidth />
              <TextInput source="home_page_message" label="pos.dashboard.messages.front_page.message" fullWidth multiline minRows={3} />
              <SaveButton label="pos.dashboard.messages.save" sx={{ mt: 2 }} />
            </Form>
          </>
        )}
      </CardContent>
    </Card>
  );
};

/** Seed 001 §3.9: the general message to members (subject, message). */
export const GeneralMessageCard = () => {
  const translate = useTranslate();
  const { data: settings, isPending } = useSettings();
  const save = useUpdateSettings();
  return (
    <Card sx={{ flex: 1 }} data-testid="general-message">
      <CardHeader
        avatar={<MailIcon color="secondary" />}
        title={translate('pos.dashboard.messages.general.title')}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        sx={{ pb: 0 }}
      />
      <CardContent>
        {isPending || !settings ? (
          <Skeleton variant="rounded" height={220} />
        ) : (
          <Form
            key={`general-${settings.general_message_subject}-${settings.general_message}`}
            defaultValues={{ general_message_subject: settings.general_message_subject, general_message: settings.general_message }}
            resolver={generalMessageResolver}
            onSubmit={async (values: Record<string, unknown>) => {
              await save({ general_message_subject: text(values, 'general_message_subject'), general_message: text(values, 'general_message') });
            }}
            noValidate
          >
            <TextInput source="general_message_subject" label="pos.dashboard.messages.general.subject" fullWidth />
            <TextInput source="general_message" label="pos.dashboard.messages.general.message" fullWidth multiline minRows={3} />
            <SaveButton label="pos.dashboard.messages.save" sx={{ mt: 2 }} />
          </Form>
        )}
      </CardContent>
    </Card>
  );
};
