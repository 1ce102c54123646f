import { useState } from 'react';
import { Box } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { SaveButton, SimpleForm, TextInput, Toolbar, maxLength, required } from 'react-admin';
import { Section, useMember, useMemberCommand } from '../common';

/** Seed 001 §2.11 item 7: subject and body, 'Send Message' (POST /api/users/{id}/send-message, mailed). Works for an inactive member too. */
export const MessagePanel = () => {
  const member = useMember();
  const command = useMemberCommand();
  const [formKey, setFormKey] = useState(0);
  if (!member) return null;
  const send = (values: Record<string, unknown>) =>
    command
      .mutateAsync({ method: 'POST', path: `/users/${member.id}/send-message`, body: { subject: values.subject, body: values.body } })
      .then(() => setFormKey((k) => k + 1))
      .catch(() => undefined);
  return (
    <Box sx={{ maxWidth: 720 }}>
      <Section title="pos.members.message.submit" testId="send-message">
        <SimpleForm
          key={formKey}
          record={{ id: member.id, subject: '', body: '' }}
          onSubmit={send}
          sx={{ p: 0 }}
          toolbar={
            <Toolbar sx={{ px: 0 }}>
              <SaveButton label="pos.members.message.submit" icon={<SendIcon />} />
            </Toolbar>
          }
        >
          <TextInput source="subject" label="pos.members.message.subject" validate={[required(), maxLength(200)]} fullWidth />
          <TextInput source="body" label="pos.members.message.body" validate={[required(), maxLength(10_000)]} multiline minRows={6} fullWidth />
        </SimpleForm>
      </Section>
    </Box>
  );
};
