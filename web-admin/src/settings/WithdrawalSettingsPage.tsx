import { usePortalQuery } from '../api/usePortalQuery';
import { useState } from 'react';
import EditIcon from '@mui/icons-material/Edit';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Button, Form, SaveButton, type Validator, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { formatNaira } from '../common/NairaField';
import { SettingsCard, validateWithServerSchema } from './SettingsCard';
import { CardGrid, SettingsPage } from './SettingsPage';
import { SettingNumberInput, SettingSelectInput, rules } from './inputs';
import { useCanEditSettings, useSettings, useUpdateSettings } from './useSettings';

const card = (name: string) => `pos.settings.cards.${name}`;
const field = (name: string) => `pos.settings.fields.${name}`;

const validatePvRate = validateWithServerSchema((values) => ({ unit_point_value: values.unit_point_value as number }));

/** The point-value rate as a one-row table with its 'Edit unit PV' modal. */
const PvRateCard = () => {
  const translate = useTranslate();
  const { data, isPending } = useSettings();
  const canEdit = useCanEditSettings();
  const update = useUpdateSettings();
  const [open, setOpen] = useState(false);
  const onSubmit = async (values: Record<string, unknown>) => {
    const errors = await update({ unit_point_value: values.unit_point_value as number });
    if (!errors) setOpen(false);
    return errors;
  };
  return (
    <Card variant="outlined" data-testid="settings-card-unit_point_value">
      <CardHeader title={translate(`${card('pv_rate')}.title`)} subheader={translate(`${card('pv_rate')}.help`)} slotProps={{ title: { variant: 'h6' }, subheader: { variant: 'body2' } }} />
      <Table size="small">
        <TableBody>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>{translate('pos.settings.pv.unit')}</TableCell>
            <TableCell>{translate('pos.settings.pv.equals')}</TableCell>
            <TableCell data-testid="unit-point-value" sx={{ fontWeight: 600 }}>
              {isPending || !data ? <Skeleton width={100} /> : formatNaira(data.unit_point_value)}
            </TableCell>
            <TableCell align="right">{canEdit ? <Button label="pos.settings.edit" onClick={() => setOpen(true)}><EditIcon /></Button> : null}</TableCell>
          </TableRow>
        </TableBody>
      </Table>
      {open && data ? (
        <Dialog open onClose={() => setOpen(false)} maxWidth="xs" fullWidth>
          <Form record={{ id: data.id, unit_point_value: data.unit_point_value }} onSubmit={onSubmit} validate={validatePvRate} noValidate>
            <DialogTitle>{translate('pos.settings.pv.dialog')}</DialogTitle>
            <DialogContent>
              <SettingNumberInput
                source="unit_point_value"
                label={field('unit_point_value')}
                unit="naira"
                min={1}
                validate={rules.number('unit_point_value', { min: 1, rangeMessage: 'unit_point_value' })}
              />
            </DialogContent>
            <DialogActions sx={{ px: 3, pb: 2 }}>
              <Button label="pos.settings.cancel" onClick={() => setOpen(false)} />
              <SaveButton label="pos.settings.update" />
            </DialogActions>
          </Form>
        </Dialog>
      ) : null}
    </Card>
  );
};

/** GET /api/payments/provider-wallet-balance, read again with Reload Data. */
const ProviderBalanceCard = () => {
  const translate = useTranslate();
  const { data, isFetching, isError, refetch } = usePortalQuery<{ available_balance: number; currency: string }>('/payments/provider-wallet-balance', { retry: false });
  return (
    <Card variant="outlined" data-testid="provider-balance">
      <CardHeader title={translate(`${card('provider_balance')}.title`)} subheader={translate(`${card('provider_balance')}.help`)} slotProps={{ title: { variant: 'h6' }, subheader: { variant: 'body2' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography variant="overline" color="text.secondary">
          {translate(field('available_balance'))}
        </Typography>
        {isFetching ? (
          <Skeleton width={160} height={40} />
        ) : isError ? (
          <Alert severity="warning">{translate('pos.settings.balance.unavailable')}</Alert>
        ) : (
          <Typography variant="h5">{formatNaira(data?.available_balance)}</Typography>
        )}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button label="pos.settings.reload" onClick={() => refetch()} disabled={isFetching}>
          <RefreshIcon />
        </Button>
      </CardActions>
    </Card>
  );
};

const chargeTypes = [
  { id: 'percentage', name: 'pos.settings.choices.charge_type.percentage' },
  { id: 'flat', name: 'pos.settings.choices.charge_type.flat' },
];

/** The charge is a percent or naira by its type; the cap applies (and is asked) only for a percentage. */
const ChargeInputs = () => {
  const type = useWatch({ name: 'withdrawal_charge_type' });
  const percentage = type === 'percentage';
  return (
    <>
      <SettingSelectInput source="withdrawal_charge_type" label={field('withdrawal_charge_type')} choices={chargeTypes} validate={rules.required()} />
      <SettingNumberInput
        source="charge"
        label={field('charge')}
        unit={percentage ? 'percent' : 'naira'}
        validate={percentage ? rules.number('charge', { min: 0, max: 100, minMessage: 'charge', maxMessage: 'percent_range' }) : rules.number('charge', { min: 0, rangeMessage: 'charge' })}
      />
      {percentage ? (
        <SettingNumberInput source="withdrawal_charge_cap" label={field('withdrawal_charge_cap')} unit="naira" validate={rules.number('charge_cap', { min: 0, rangeMessage: 'charge_cap' })} />
      ) : null}
    </>
  );
};

const payoutTypes = [
  { id: 'weekly', name: 'pos.settings.choices.payout_type.weekly' },
  { id: 'monthly', name: 'pos.settings.choices.payout_type.monthly' },
];
const weekdays = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `pos.settings.choices.weekday.${i + 1}` }));

/** Choosing a type shows the matching day selector (weekly 1–7 = Sunday–Saturday, monthly 1–30). */
const PayoutInputs = () => {
  const translate = useTranslate();
  const type = useWatch({ name: 'withdrawal_type' });
  const monthDays = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: translate('pos.settings.choices.month_day', { day: i + 1 }) }));
  const inRange: Validator = (value: unknown) => {
    const day = Number(value);
    const max = type === 'weekly' ? 7 : 30;
    return Number.isInteger(day) && day >= 1 && day <= max ? undefined : 'pos.settings.validation.required';
  };
  return (
    <>
      <SettingSelectInput source="withdrawal_type" label={field('withdrawal_type')} choices={payoutTypes} emptyText="pos.settings.choices.payout_type.none" />
      {type === 'weekly' || type === 'monthly' ? (
        <SettingSelectInput
          key={type}
          source="withdrawal_period"
          label={field('withdrawal_period')}
          choices={type === 'weekly' ? weekdays : monthDays}
          translateChoice={type === 'weekly'}
          validate={[rules.required(), inRange]}
        />
      ) : null}
    </>
  );
};

/** /admin/withdrawal-settings (seed 002 "Withdrawal settings"). */
export const WithdrawalSettingsPage = () => (
  <SettingsPage title="pos.settings.page.withdrawal">
    <CardGrid>
      <PvRateCard />
      <ProviderBalanceCard />
    </CardGrid>
    <CardGrid>
      <SettingsCard title={`${card('minimum_withdrawal')}.title`} help={`${card('minimum_withdrawal')}.help`} fields={['minimum_withdrawal']}>
        <SettingNumberInput source="minimum_withdrawal" label={field('minimum_withdrawal')} unit="naira" min={0} validate={rules.optionalNumber('minimum_withdrawal')} />
      </SettingsCard>
      <SettingsCard title={`${card('maximum_withdrawal')}.title`} help={`${card('maximum_withdrawal')}.help`} fields={['maximum_withdrawal']}>
        <SettingNumberInput source="maximum_withdrawal" label={field('maximum_withdrawal')} unit="naira" min={0} validate={rules.optionalNumber('maximum_withdrawal')} />
      </SettingsCard>
      <SettingsCard
        title={`${card('charge')}.title`}
        help={`${card('charge')}.help`}
        fields={['withdrawal_charge_type', 'charge', 'withdrawal_charge_cap']}
        toBody={(values) =>
          values.withdrawal_charge_type === 'percentage'
            ? values
            : { withdrawal_charge_type: values.withdrawal_charge_type as 'flat', charge: values.charge as number }
        }
      >
        <ChargeInputs />
      </SettingsCard>
      <SettingsCard
        title={`${card('payout')}.title`}
        help={`${card('payout')}.help`}
        fields={['withdrawal_type', 'withdrawal_period']}
        toBody={(values) => {
          const type = values.withdrawal_type === '' || values.withdrawal_type == null ? null : (values.withdrawal_type as 'weekly' | 'monthly');
          return { withdrawal_type: type, withdrawal_period: type === null ? null : (values.withdrawal_period as number) };
        }}
      >
        <PayoutInputs />
      </SettingsCard>
    </CardGrid>
  </SettingsPage>
);
