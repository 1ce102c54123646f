import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { Box, Dialog, DialogActions, DialogContent, DialogTitle, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Button, useRecordContext, useTranslate } from 'react-admin';
import { formatNaira } from '../common/NairaField';
import { StatusChip } from './StatusChip';
import { formatDateTime } from '../common/dates';

const Detail = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Stack direction="row" spacing={2} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
    <Typography variant="body2" color="text.secondary" sx={{ width: 120, flexShrink: 0 }}>
      {label}
    </Typography>
    <Box sx={{ typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
  </Stack>
);

/** The seed's "View Payment Receipt" modal: the uploaded image with package, amount, description and status. */
export const ViewReceiptButton = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const close = () => setOpen(false);
  return (
    <>
      <Button
        label="resources.package-payments.action.view_receipt"
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        <ReceiptLongIcon />
      </Button>
      <Dialog open={open} onClose={close} onClick={(event) => event.stopPropagation()} maxWidth="sm" fullWidth aria-labelledby={`receipt-${record.id}`}>
        <DialogTitle id={`receipt-${record.id}`}>{translate('pos.approvals.receipt.title')}</DialogTitle>
        <DialogContent dividers>
          {record.receipt_url ? (
            <Box sx={{ textAlign: 'center', bgcolor: 'grey.100', borderRadius: 1, p: 1, mb: 2 }}>
              <Box
                component="img"
                src={record.receipt_url}
                alt={translate('pos.approvals.receipt.image_alt', { name: record.full_name })}
                data-testid="receipt-image"
                sx={{ maxWidth: '100%', maxHeight: 360, minHeight: 120, minWidth: 120, objectFit: 'contain', imageRendering: 'auto' }}
              />
              <Box>
                <Link href={record.receipt_url} target="_blank" rel="noopener" variant="caption">
                  {translate('pos.approvals.receipt.open')}
                </Link>
              </Box>
            </Box>
          ) : (
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {translate('pos.approvals.receipt.none')}
            </Typography>
          )}
          <Detail label={translate('pos.approvals.receipt.member')}>
            {record.full_name} ({record.username})
          </Detail>
          <Detail label={translate('pos.approvals.receipt.package')}>{record.package_name}</Detail>
          <Detail label={translate('pos.approvals.receipt.amount')}>{formatNaira(record.amount)}</Detail>
          <Detail label={translate('pos.approvals.receipt.description')}>{record.narration || translate('pos.approvals.no_reference')}</Detail>
          <Detail label={translate('pos.approvals.receipt.date')}>{formatDateTime(record.created_at)}</Detail>
          <Detail label={translate('pos.approvals.receipt.status')}>
            <StatusChip status={record.status} />
            {record.status_reason ? (
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                {record.status_reason}
              </Typography>
            ) : null}
          </Detail>
        </DialogContent>
        <DialogActions>
          <Button label="pos.approvals.receipt.close" onClick={close} />
        </DialogActions>
      </Dialog>
    </>
  );
};
