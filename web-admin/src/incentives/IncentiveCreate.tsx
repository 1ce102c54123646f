import { Create } from 'react-admin';
import { IncentiveForm, incentiveTransform } from './IncentiveForm';
import { useSavedNotice } from './useSavedNotice';

export const IncentiveCreate = () => (
  <Create title="pos.incentives.edit.create_title" transform={incentiveTransform} mutationOptions={useSavedNotice('incentives', 'pos.incentives.edit.created')}>
    <IncentiveForm />
  </Create>
);
