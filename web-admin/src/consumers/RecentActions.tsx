import { Card, CardContent, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { OperatorAction } from '@portal/services/contracts/operators';
import { ago } from './format';

const describe = (action: OperatorAction): string => {
  const data = action.data as Record<string, unknown>;
  const what = action.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const subject = typeof data.consumer === 'string' ? data.consumer : typeof data.path === 'string' ? `${data.method} ${data.path}` : action.stream_id;
  return `${what.charAt(0).toUpperCase()}${what.slice(1)}: ${subject}`;
};

/** What operators did (pause, resume, retry, rebuild, Bull Board writes), newest first, with who did it. */
export const RecentActions = ({ actions }: { actions: OperatorAction[] }) => {
  const translate = useTranslate();
  return (
    <Card>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {translate('pos.consumers.recent')}
        </Typography>
        {actions.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('pos.consumers.no_recent')}
          </Typography>
        )}
        <List dense disablePadding>
          {actions.map((action) => (
            <ListItem key={action.id} disableGutters data-testid="operator-action">
              <ListItemText
                primary={describe(action)}
                secondary={`#${action.id} · ${ago(action.recorded_at)} · ${translate('pos.consumers.by', { name: action.actor.name ?? action.actor.id ?? action.actor.type })}`}
                slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
};
