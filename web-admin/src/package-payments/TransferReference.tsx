import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The copy button beside a transfer reference. */
const CopyReference = ({ reference }: { reference: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  return (
    <Tooltip title={translate('pos.approvals.reference.copy')}>
      <IconButton
        size="small"
        aria-label={translate('pos.approvals.reference.copy')}
        onClick={async (event) => {
          event.stopPropagation();
          if (await copyText(reference)) notify('pos.approvals.reference.copied', { type: 'info' });
          else notify('pos.approvals.reference.copy_failed', { type: 'warning' });
        }}
      >
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Tooltip>
  );
};

/**
 * The reference the member was asked to write on their bank transfer (e.g. HLN-REG-CHIDI), large
 * and copyable, at the top of the receipt dialog: what the admin looks for on the bank statement.
 */
export const TransferReferenceBox = ({ reference }: { reference: string }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 2, p: 1.5, borderRadius: 1, border: 1, borderColor: 'primary.light', bgcolor: 'action.hover' }} data-testid="transfer-reference">
      <Typography variant="caption" color="text.secondary" component="p">
        {translate('pos.approvals.reference.label')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography sx={{ fontFamily: 'monospace', fontWeight: 700, fontSize: '1.2rem', letterSpacing: 0.5, overflowWrap: 'anywhere', userSelect: 'all' }} data-testid="transfer-reference-value">
          {reference}
        </Typography>
        <CopyReference reference={reference} />
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p">
        {translate('pos.approvals.reference.help')}
      </Typography>
    </Box>
  );
};

/** The same reference, small, in a list row. */
export const TransferReferenceLine = ({ reference }: { reference: string }) => {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center' }} data-testid="row-transfer-reference">
      <Typography
        variant="caption"
        title={translate('pos.approvals.reference.label')}
        sx={{ fontFamily: 'monospace', fontWeight: 600, whiteSpace: 'nowrap' }}
      >
        {reference}
      </Typography>
      <CopyReference reference={reference} />
    </Stack>
  );
};
