import { Create } from 'react-admin';
import { useSavedNotice } from '../incentives/useSavedNotice';
import { RankForm } from './RankForm';

export const RankCreate = () => (
  <Create title="pos.incentives.ranks.create_title" record={{ is_global_profit_eligible: 0, description: '' }} mutationOptions={useSavedNotice('ranks', 'pos.incentives.ranks.created')}>
    <RankForm />
  </Create>
);
