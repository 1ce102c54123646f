import { usePortalQuery } from '../api/usePortalQuery';
import { NumberInput, SaveButton, SelectInput, SimpleForm, TextInput, Toolbar, minValue, required } from 'react-admin';
import { rankCreateBody } from '@portal/services/contracts/catalogue';
import { serverSchemaValidator } from '../common/serverSchema';

/** The API's own rules (contracts/catalogue.ts), at the fields. */
const validate = serverSchemaValidator(rankCreateBody);

const eligibility = [
  { id: 1, name: 'pos.incentives.ranks.eligible' },
  { id: 0, name: 'pos.incentives.ranks.not_eligible' },
];

/** The registration packages (public GET /api/packages/all): a rank's minimum package. */
const usePackages = () =>
  usePortalQuery<Array<{ id: number; name: string }>>('/packages/all');

/** Seed 002 §5: name, points, eligibility and package required; a missing package says 'Package required'. */
export const RankForm = () => {
  const { data: packages, isPending } = usePackages();
  return (
    // No delete: a rank cannot be removed (catalogue kind rank is not removable).
    <SimpleForm validate={validate} noValidate sx={{ maxWidth: 560 }} toolbar={<Toolbar><SaveButton /></Toolbar>}>
      <TextInput source="name" validate={required()} fullWidth />
      <NumberInput source="points" validate={[required(), minValue(0)]} fullWidth />
      <SelectInput source="is_global_profit_eligible" choices={eligibility} validate={required()} fullWidth />
      <SelectInput source="package_id" choices={packages ?? []} isPending={isPending} validate={required('pos.incentives.ranks.package_required')} fullWidth />
      <TextInput source="description" multiline minRows={2} fullWidth />
    </SimpleForm>
  );
};
