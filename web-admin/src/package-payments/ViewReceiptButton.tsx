import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { Box, Dialog, DialogActions, DialogContent, DialogTitle, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Button, useRecordContext, useTranslate } from 'react-admin';
import { formatNaira } from '../common/NairaField';
import { StatusChip } from './StatusChip';
import { formatDateTime } from '../common/dates';
import { TransferReferenceBox } from './TransferReference';

const Detail = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Stack direction="row" spacing={2} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
    <Typography variant="body2" color="text.secondary" sx={{ width: 120, flexShrink: 0 }}>
      {label}
    </Typography>
    <Box sx={{ typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
  </Stack>
);

/**
 * The seed's "View Payment Receipt" modal: the transfer reference the member was told to use, the
 * uploaded image, package, amount, description and status. For a payment without a receipt (card,
 * wallet) the same details open from a "Details" button, titled "Payment details", with no image.
 */
export const ViewReceiptButton = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const close = () => setOpen(false);
  const isReceipt = record.method === 'receipt';
  return (
    <>
      <Button
        label={isReceipt ? 'resources.package-payments.action.view_receipt' : 'resources.package-payments.action.view_details'}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {isReceipt ? <ReceiptLongIcon /> : <InfoOutlinedIcon />}
      </Button>
      <Dialog open={open} onClose={close} onClick={(event) => event.stopPropagation()} maxWidth="sm" fullWidth aria-labelledby={`receipt-${record.id}`}>
        <DialogTitle id={`receipt-${record.id}`}>{translate(isReceipt ? 'pos.approvals.receipt.title' : 'pos.approvals.receipt.details_title')}</DialogTitle>
        <DialogContent dividers>
          {record.transfer_reference ? <TransferReferenceBox reference={record.transfer_reference} /> : null}
          {!isReceipt ? null : record.receipt_url ? (
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
          <Detail label={translate('resources.package-payments.fields.method')}>
            {translate(`pos.approvals.method.${record.method}`, { _: record.method })}
            {!isReceipt && record.reference ? (
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', fontFamily: 'monospace' }}>
                {translate('resources.package-payments.fields.reference')}: {record.reference}
              </Typography>
            ) : null}
          </Detail>
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
