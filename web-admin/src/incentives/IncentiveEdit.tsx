import { Edit } from 'react-admin';
import { IncentiveForm, incentiveTransform } from './IncentiveForm';
import { useSavedNotice } from './useSavedNotice';

/** Seed 002: Edit opens 'Incentive details' (rank, incentive, cash equivalent, optional image). */
export const IncentiveEdit = () => (
  <Edit title="pos.incentives.edit.title" mutationMode="pessimistic" transform={incentiveTransform} mutationOptions={useSavedNotice('incentives', 'pos.incentives.edit.updated')}>
    <IncentiveForm />
  </Edit>
);
