import { SimpleForm, TextInput, minValue, number, required } from 'react-admin';
import { CatalogueToolbar, MoneyInput, UnitInput } from './common';
import { packageCreateBody } from '@portal/services/contracts/catalogue';
import { serverSchemaValidator } from '../common/serverSchema';

/** The API's own rules (contracts/catalogue.ts), at the fields. */
const validate = serverSchemaValidator(packageCreateBody);

/**
 * The package form (seed 002 §5 "Package edit": name, point_value, registration_value,
 * pickup_amount, matching_bonus_cap; the last two default to 0). Amounts in naira.
 */
export const PackageForm = () => (
  <SimpleForm validate={validate} noValidate defaultValues={{ pickup_amount: 0, matching_bonus_cap: 0 }} toolbar={<CatalogueToolbar />} sx={{ maxWidth: 560 }}>
    <TextInput source="name" validate={required()} fullWidth />
    <UnitInput source="point_value" unit="PV" validate={[required(), number(), minValue(0)]} fullWidth />
    <MoneyInput source="registration_value" validate={[required(), minValue(0)]} fullWidth />
    <MoneyInput source="pickup_amount" validate={minValue(0)} fullWidth />
    <MoneyInput source="matching_bonus_cap" validate={minValue(0)} fullWidth />
  </SimpleForm>
);

