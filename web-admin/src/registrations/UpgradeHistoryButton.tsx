import HistoryIcon from '@mui/icons-material/History';
import { Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useState } from 'react';
import { Button, Datagrid, FunctionField, ReferenceManyField, TextField, useRecordContext, useTranslate } from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import { NairaField } from '../common/NairaField';
import { StatusChip } from '../package-payments/StatusChip';

/**
 * The seed's "User Upgrade History" modal for one registration: that member's upgrade payments
 * (package, amount, status, reference, date), read from the package-payments resource.
 */
export const UpgradeHistoryButton = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const close = () => setOpen(false);
  return (
    <>
      <Button
        label="pos.approvals.upgrade_history.button"
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        <HistoryIcon />
      </Button>
      <Dialog open={open} onClose={close} onClick={(event) => event.stopPropagation()} maxWidth="md" fullWidth>
        <DialogTitle>
          {translate('pos.approvals.upgrade_history.title')}
          <Typography variant="body2" color="text.secondary">
            {translate('pos.approvals.upgrade_history.subtitle', { name: record.full_name, username: record.username })}
          </Typography>
        </DialogTitle>
        <DialogContent dividers>
          <ReferenceManyField
            reference="package-payments"
            target="member_id"
            source="id"
            filter={{ purpose: 'upgrade' }}
            sort={{ field: 'created_at', order: 'DESC' }}
            perPage={50}
          >
            <Datagrid
              rowClick={false}
              bulkActionButtons={false}
              empty={
                <Typography color="text.secondary" sx={{ p: 2 }}>
                  {translate('pos.approvals.empty.upgrade_history')}
                </Typography>
              }
            >
              <TextField source="package_name" label="pos.approvals.upgrade_history.package" sortable={false} />
              <NairaField source="amount" label="pos.approvals.upgrade_history.amount" sortable={false} />
              <FunctionField source="status" label="pos.approvals.upgrade_history.status" sortable={false} render={(r) => <StatusChip status={r.status} />} />
              <TextField source="reference" label="pos.approvals.upgrade_history.reference" sortable={false} emptyText={translate('pos.approvals.no_reference')} />
              <DateTimeField source="created_at" label="pos.approvals.upgrade_history.date" sortable={false} showTime />
            </Datagrid>
          </ReferenceManyField>
        </DialogContent>
        <DialogActions>
          <Button label="pos.approvals.receipt.close" onClick={close} />
        </DialogActions>
      </Dialog>
    </>
  );
};
