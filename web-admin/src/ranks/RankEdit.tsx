import { Edit } from 'react-admin';
import { useSavedNotice } from '../incentives/useSavedNotice';
import { RankForm } from './RankForm';

/** Seed 002 "Ranks": the 'Edit Rank' form. */
export const RankEdit = () => (
  <Edit title="pos.incentives.ranks.edit_title" mutationMode="pessimistic" mutationOptions={useSavedNotice('ranks', 'pos.incentives.ranks.updated')}>
    <RankForm />
  </Edit>
);
