import { NumberInput, SimpleForm, TextInput, maxValue, minValue, number, required } from 'react-admin';
import { CatalogueToolbar, MoneyInput, UnitInput } from '../packages/common';
import { stockistPackageCreateBody } from '@portal/services/contracts/catalogue';
import { serverSchemaValidator } from '../common/serverSchema';

/** The API's own rules (contracts/catalogue.ts), at the fields. */
const validate = serverSchemaValidator(stockistPackageCreateBody);

/**
 * A stockist package (seed 002 §3): name, registration amount, rebate (sales bonus percentage),
 * pick-up amount, point value (default 1) and level. Amounts in naira.
 */
export const StockistPackageForm = () => (
  <SimpleForm validate={validate} noValidate defaultValues={{ point_value: 1, value: 0 }} toolbar={<CatalogueToolbar />} sx={{ maxWidth: 560 }}>
    <TextInput source="name" validate={required()} fullWidth />
    <MoneyInput source="registration_value" validate={[required(), minValue(0)]} fullWidth />
    <UnitInput source="sales_bonus_percentage" unit="%" validate={[required(), number(), minValue(0), maxValue(100)]} fullWidth />
    <MoneyInput source="pickup_amount" validate={[required(), minValue(0)]} fullWidth />
    <UnitInput source="point_value" unit="PV" validate={[required(), minValue(0)]} fullWidth />
    <NumberInput source="value" validate={[required(), minValue(0)]} fullWidth />
  </SimpleForm>
);
