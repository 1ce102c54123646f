import { Box, Card, CardContent, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ConsumerRecord } from '@portal/services/contracts/operators';
import { ConsumerActions } from './ConsumerActions';
import { ConsumerDetails } from './ConsumerDetails';
import { ConsumerStatusChip } from './ConsumerStatusChip';
import { RebuildProgress } from './RebuildProgress';
import { ago, count, duration } from './format';

type Props = { consumers: ConsumerRecord[]; canWrite: boolean };

const Name = ({ consumer }: { consumer: ConsumerRecord }) => {
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {consumer.name}
      </Typography>
      <Chip size="small" variant="outlined" label={translate(`pos.consumers.kind.${consumer.kind}`)} />
    </Stack>
  );
};

/** Every consumer: a table on wide screens, a card each on a phone. */
export const ConsumerList = ({ consumers, canWrite }: Props) => {
  const translate = useTranslate();
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'));
  if (!wide) {
    return (
      <Stack sx={{ gap: 1.5 }}>
        {consumers.map((consumer) => (
          <Card key={consumer.name} data-testid={`consumer-${consumer.name}`}>
            <CardContent>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
                <Name consumer={consumer} />
                <ConsumerStatusChip status={consumer.status} />
              </Stack>
              <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1, mt: 1.5 }}>
                <Figure label={translate('pos.consumers.checkpoint')} value={`#${count(consumer.checkpoint.global_position)}`} />
                <Figure label={translate('pos.consumers.behind')} value={count(consumer.events_behind)} />
                <Figure label={translate('pos.consumers.time_behind')} value={duration(consumer.seconds_behind)} />
                <Figure label={translate('pos.consumers.throughput')} value={translate('pos.consumers.per_minute', { n: consumer.events_per_minute })} />
              </Box>
              <ConsumerDetails consumer={consumer} />
              {consumer.rebuild && (
                <Box sx={{ mt: 1 }}>
                  <RebuildProgress run={consumer.rebuild} />
                </Box>
              )}
              {canWrite && (
                <Box sx={{ mt: 1 }}>
                  <ConsumerActions consumer={consumer} />
                </Box>
              )}
            </CardContent>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Card>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('pos.consumers.name')}</TableCell>
            <TableCell>{translate('pos.consumers.status')}</TableCell>
            <TableCell align="right">{translate('pos.consumers.checkpoint')}</TableCell>
            <TableCell align="right">{translate('pos.consumers.behind')}</TableCell>
            <TableCell align="right">{translate('pos.consumers.time_behind')}</TableCell>
            <TableCell align="right">{translate('pos.consumers.throughput')}</TableCell>
            {canWrite && <TableCell>{translate('pos.consumers.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {consumers.map((consumer) => (
            <TableRow key={consumer.name} data-testid={`consumer-${consumer.name}`} sx={{ verticalAlign: 'top' }}>
              <TableCell sx={{ maxWidth: 420 }}>
                <Name consumer={consumer} />
                <ConsumerDetails consumer={consumer} />
                {consumer.rebuild && (
                  <Box sx={{ mt: 1 }}>
                    <RebuildProgress run={consumer.rebuild} />
                  </Box>
                )}
              </TableCell>
              <TableCell>
                <ConsumerStatusChip status={consumer.status} />
              </TableCell>
              <TableCell align="right">
                <Typography variant="body2">#{count(consumer.checkpoint.global_position)}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {translate('pos.consumers.applied', { n: count(consumer.checkpoint.events_applied) })} · {ago(consumer.checkpoint.updated_at)}
                </Typography>
              </TableCell>
              <TableCell align="right" data-testid="consumer-behind">{count(consumer.events_behind)}</TableCell>
              <TableCell align="right">{duration(consumer.seconds_behind)}</TableCell>
              <TableCell align="right">{translate('pos.consumers.per_minute', { n: consumer.events_per_minute })}</TableCell>
              {canWrite && (
                <TableCell>
                  <ConsumerActions consumer={consumer} />
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
};

const Figure = ({ label, value }: { label: string; value: string }) => (
  <Box>
    <Typography variant="caption" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2">{value}</Typography>
  </Box>
);
