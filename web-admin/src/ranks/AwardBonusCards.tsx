import { Button, Card, CardContent, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { usePermissions, useTranslate } from 'react-admin';
import { api } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';
import { settingsQueryKey, useSettings } from '../settings/useSettings';

type AwardSetting = 'award_winner_sponsor_bonus_percentage' | 'award_winner_dd_bonus_percentage';

/**
 * Seed 002 "Ranks": the cards for the award winner upline (sponsor) and direct downline bonus
 * percentages, settings changed through PUT /api/settings/update (an event naming the admin).
 */
const AwardCard = ({ name, title, help, current }: { name: AwardSetting; title: string; help: string; current: number | undefined }) => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const queryClient = useQueryClient();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  const [value, setValue] = useState('');
  useEffect(() => setValue(current === undefined ? '' : String(current)), [current]);
  const save = useMutation({
    mutationFn: () => api.put('/settings/update', { [name]: value === '' ? null : Number(value) }),
    onSuccess: (answer) => {
      notifySuccess(answer.message);
      queryClient.setQueryData(settingsQueryKey, answer.data);
    },
    onError: (error) => notifyError(error),
  });
  const canEdit = permissions === 'admin';
  return (
    <Card variant="outlined" data-testid={`card-${name}`}>
      <CardContent>
        <Typography variant="subtitle2" color="text.secondary">
          {translate(title)}
        </Typography>
        <Typography variant="h4" sx={{ my: 1 }}>
          {current === undefined ? '—' : `${current}%`}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: canEdit ? 2 : 0 }}>
          {translate(help)}
        </Typography>
        {canEdit && (
          <Stack direction="row" spacing={1} alignItems="flex-start">
            <TextField
              size="small"
              type="number"
              name={name}
              label={translate('pos.incentives.ranks.percentage')}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              slotProps={{ input: { endAdornment: <InputAdornment position="end">%</InputAdornment> }, htmlInput: { min: 0, max: 100, step: 0.5 } }}
            />
            <Button variant="contained" disabled={save.isPending || value === String(current)} onClick={() => save.mutate()}>
              {translate('pos.incentives.ranks.save')}
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};

export const AwardBonusCards = () => {
  const { data } = useSettings();
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mt: 2, '& > *': { flex: 1 } }}>
      <AwardCard
        name="award_winner_sponsor_bonus_percentage"
        title="pos.incentives.ranks.award_sponsor"
        help="pos.incentives.ranks.award_sponsor_help"
        current={data?.award_winner_sponsor_bonus_percentage}
      />
      <AwardCard
        name="award_winner_dd_bonus_percentage"
        title="pos.incentives.ranks.award_dd"
        help="pos.incentives.ranks.award_dd_help"
        current={data?.award_winner_dd_bonus_percentage}
      />
    </Stack>
  );
};
