import { useState } from 'react';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import {
  Button,
  DataTable,
  Form,
  ListContextProvider,
  ResourceContextProvider,
  SaveButton,
  useList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { type FieldValues, type Resolver, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { bonusGenerationBody } from '@portal/services/contracts/settings';
import { api } from '../api/client';
import { SettingNumberInput, SettingsReadOnly } from './inputs';
import {
  type BonusGenerationRow,
  GENERATIONS,
  type GenerationKind,
  generationField,
  generationPaths,
  useCanEditSettings,
  useGenerationTable,
  useSaveThrough,
} from './useSettings';

const g = (key: string) => `pos.settings.generations.${key}`;
const percentText = (value: number) => `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 }).format(value)}%`;
/** 0 shows as a dash (seed 002 "Referral bonus settings"). */
const percentOrDash = (value: unknown) => (Number(value) === 0 ? '–' : percentText(Number(value)));
const totalOf = (row: Record<string, unknown>) => GENERATIONS.reduce((sum, n) => sum + (Number(row[generationField(n)]) || 0), 0);

/**
 * The server's own schema (contracts/settings.ts) checks the ten inputs before sending: empty is 0,
 * anything else a number from 0 to 100, with the seed's words at the field (002 §5). Validators
 * written for react-admin instead crashed the page on 150 or -5 (issue 11).
 */
const generationResolver = zodResolver(bonusGenerationBody) as unknown as Resolver<FieldValues>;

const RunningTotal = () => {
  const translate = useTranslate();
  const values = useWatch();
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
      {translate(g('total_help'), { total: new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 }).format(totalOf(values)) })}
    </Typography>
  );
};

/** The edit modal of one row: ten generation inputs, Update Data (busy while sending). */
const EditGenerationsDialog = ({ kind, row, onClose }: { kind: GenerationKind; row: BonusGenerationRow; onClose: () => void }) => {
  const translate = useTranslate();
  const saveThrough = useSaveThrough();
  const fields = GENERATIONS.map(generationField) as string[];
  const onSubmit = async (values: Record<string, unknown>) => {
    const body = Object.fromEntries(fields.map((field) => [field, values[field] ?? '']));
    const errors = await saveThrough(() => api.put<BonusGenerationRow>(generationPaths[kind].update(row.id), body), fields);
    if (!errors) onClose();
    return errors;
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={`generations-${kind}-title`}>
      <Form record={row} onSubmit={onSubmit} sanitizeEmptyValues={false} resolver={generationResolver}>
        <DialogTitle id={`generations-${kind}-title`}>
          {translate(`${g('dialog')}.${kind}`)}
          <Typography variant="body2" color="text.secondary">
            {translate(g('dialog_subtitle'), { name: row.name })}
          </Typography>
        </DialogTitle>
        <DialogContent dividers>
          <SettingsReadOnly.Provider value={false}>
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
              {GENERATIONS.map((n) => (
                <SettingNumberInput
                  key={n}
                  source={generationField(n)}
                  label={translate(g('generation_field'), { n })}
                  unit="percent"
                />
              ))}
            </Box>
          </SettingsReadOnly.Provider>
          <RunningTotal />
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button label="pos.settings.cancel" onClick={onClose} />
          <SaveButton label="pos.settings.update" icon={<EditIcon />} />
        </DialogActions>
      </Form>
    </Dialog>
  );
};

const EditRowButton = ({ kind }: { kind: GenerationKind }) => {
  const row = useRecordContext<BonusGenerationRow>();
  const [open, setOpen] = useState(false);
  if (!row) return null;
  return (
    <>
      <Button label="pos.settings.edit" onClick={() => setOpen(true)} aria-label={`edit-${row.name}`}>
        <EditIcon />
      </Button>
      {open ? <EditGenerationsDialog kind={kind} row={row} onClose={() => setOpen(false)} /> : null}
    </>
  );
};

/**
 * A generation table (referral, upgrade, unilevel, stockist upline): one row per registration
 * package, generations 1 to 10 in percent (0 as a dash), and an edit modal per row for admins.
 */
export const GenerationTable = ({ kind }: { kind: GenerationKind }) => {
  const translate = useTranslate();
  const canEdit = useCanEditSettings();
  const { data, isPending, error } = useGenerationTable(kind);
  const listContext = useList({ data, isPending, error, perPage: 100, sort: { field: 'id', order: 'ASC' } });
  return (
    <Card variant="outlined">
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 2, pb: 1 }}>
        {translate(`${g('intro')}.${kind}`)}
      </Typography>
      <ResourceContextProvider value={`settings-${kind}-bonus`}>
        <ListContextProvider value={listContext}>
          <Box sx={{ overflowX: 'auto' }}>
            <DataTable
              bulkActionButtons={false}
              rowClick={false}
              size="small"
              empty={
                <Typography variant="body2" sx={{ p: 2 }}>
                  {translate(`${g('empty')}.${kind}`)}
                </Typography>
              }
            >
              <DataTable.Col source="name" label={g('package')} disableSort />
              {GENERATIONS.map((n) => (
                <DataTable.Col
                  key={n}
                  source={generationField(n)}
                  label={translate(g('generation'), { n })}
                  align="right"
                  disableSort
                  render={(row: BonusGenerationRow) => percentOrDash(row[generationField(n)])}
                />
              ))}
              <DataTable.Col source="total" label={g('total')} align="right" disableSort render={(row: BonusGenerationRow) => percentOrDash(totalOf(row))} />
              {canEdit ? (
                <DataTable.Col source="actions" label={g('actions')} disableSort>
                  <EditRowButton kind={kind} />
                </DataTable.Col>
              ) : null}
            </DataTable>
          </Box>
        </ListContextProvider>
      </ResourceContextProvider>
    </Card>
  );
};
