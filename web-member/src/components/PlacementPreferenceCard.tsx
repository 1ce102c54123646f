import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, CardContent, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import AccountTree from '@mui/icons-material/AccountTreeOutlined';
import {
  type PlacementPreference,
  placementPreferenceLabels,
  placementPreferences,
} from '@portal/services/contracts/placement';
import { api } from '../api/client';
import { placementPreferenceQuery, queryKeys } from '../api/queries';
import { useMember } from '../auth/member-context';
import { toastOnSuccess } from '../lib/notify';

const COMPANY_DEFAULT = 'company_default';

/**
 * Where recruits arriving through the member's link go once the member's own two legs are taken
 * (spillover, docs/placement.md): the member's choice, or the company's default.
 */
export function PlacementPreferenceCard() {
  const user = useMember();
  const queryClient = useQueryClient();
  const view = useQuery(placementPreferenceQuery(user.uuid));
  const [choice, setChoice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const current = choice ?? view.data?.preference ?? COMPANY_DEFAULT;

  const save = async () => {
    setSaving(true);
    const preference = current === COMPANY_DEFAULT ? null : (current as PlacementPreference);
    const saved = await toastOnSuccess(() => api.put(`/users/${user.uuid}/placement-preference`, { preference }), 'Placement preference saved.');
    setSaving(false);
    if (saved) {
      setChoice(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.placementPreference(user.uuid) });
    }
  };

  return (
    <Card component="section" aria-labelledby="placement-preference-title" data-testid="placement-preference-card">
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
          <AccountTree color="primary" fontSize="small" />
          <Typography id="placement-preference-title" variant="h6" component="h2">
            Placement of new recruits
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          When someone joins through your link after your left and right places are taken, they are placed in your team this way.
        </Typography>
        {view.data ? (
          <Stack spacing={1.5}>
            <TextField select label="Place them at" value={current} onChange={(e) => setChoice(e.target.value)} size="small" fullWidth>
              <MenuItem value={COMPANY_DEFAULT}>Company default ({placementPreferenceLabels[view.data.company_default].toLowerCase()})</MenuItem>
              {placementPreferences.map((p) => (
                <MenuItem key={p} value={p}>
                  {placementPreferenceLabels[p]}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="contained" onClick={save} disabled={saving || current === (view.data.preference ?? COMPANY_DEFAULT)} sx={{ alignSelf: 'flex-start' }}>
              {saving ? 'Saving…' : 'Save'}
            </Button>
          </Stack>
        ) : (
          <Skeleton variant="rounded" height={88} />
        )}
      </CardContent>
    </Card>
  );
}
