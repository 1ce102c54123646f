import { type ReactNode, useMemo } from 'react';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Skeleton from '@mui/material/Skeleton';
import { Form, SaveButton, useTranslate } from 'react-admin';
import { type SettingsUpdateBody, settingsUpdateBody } from '@portal/services/contracts/settings';
import { serverSchemaValidator } from '../common/serverSchema';
import { SettingsReadOnly } from './inputs';
import { type SettingName, type Settings, useCanEditSettings, useSettings, useUpdateSettings } from './useSettings';

/** The card's values from the settings record: only its own, so another card's save does not reset it. */
const pick = (settings: Settings | undefined, fields: readonly SettingName[]) =>
  settings ? { id: settings.id, ...Object.fromEntries(fields.map((field) => [field, settings[field]])) } : undefined;

/** The server's own schema (contracts/settings.ts) over the body this card would send (common/serverSchema.ts). */
export const validateWithServerSchema = (toBody: (values: Record<string, unknown>) => SettingsUpdateBody) => serverSchemaValidator(settingsUpdateBody, toBody);

/**
 * One card of a settings page: a react-admin Form over some fields of the settings record, saved
 * with PUT /api/settings/update (only these fields), showing the server's message or refusal.
 * `toBody` adapts the form values to the payload (e.g. a blank payout type sent as null).
 */
export const SettingsCard = ({
  title,
  help,
  fields,
  children,
  toBody,
}: {
  title: string;
  help?: string;
  fields: readonly SettingName[];
  children: ReactNode;
  toBody?: (values: Record<string, unknown>) => SettingsUpdateBody;
}) => {
  const translate = useTranslate();
  const { data, isPending } = useSettings();
  const canEdit = useCanEditSettings();
  const update = useUpdateSettings();
  const values = pick(data, fields);
  const key = JSON.stringify(values);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const record = useMemo(() => values, [key]);
  const bodyOf = (submitted: Record<string, unknown>) => {
    const body = Object.fromEntries(fields.map((field) => [field, submitted[field]]));
    return toBody ? toBody(body) : (body as SettingsUpdateBody);
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const validate = useMemo(() => validateWithServerSchema(bodyOf), [fields.join(), toBody]);
  const onSubmit = async (submitted: Record<string, unknown>) => update(bodyOf(submitted));
  return (
    <Card variant="outlined" data-testid={`settings-card-${fields[0]}`}>
      <CardHeader title={translate(title)} subheader={help ? translate(help) : undefined} slotProps={{ title: { variant: 'h6' }, subheader: { variant: 'body2' } }} />
      {isPending || !record ? (
        <CardContent>
          <Skeleton height={56} />
        </CardContent>
      ) : (
        <Form record={record} onSubmit={onSubmit} validate={validate} sanitizeEmptyValues={false} noValidate>
          <SettingsReadOnly.Provider value={!canEdit}>
            <CardContent sx={{ pt: 0, pb: 0 }}>{children}</CardContent>
          </SettingsReadOnly.Provider>
          {canEdit ? (
            <CardActions sx={{ px: 2, pb: 2 }}>
              <SaveButton />
            </CardActions>
          ) : null}
        </Form>
      )}
    </Card>
  );
};
