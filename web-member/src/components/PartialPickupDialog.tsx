import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { formatNaira } from '../lib/money';

interface Pending {
  label: string;
  total: number;
  allowance: number;
  go: () => void;
}

/**
 * A registration or upgrade pick-up is taken once (BUSINESS-RULES.md §5): what it leaves of the
 * allowance cannot be picked up later, so a pick-up below the allowance is confirmed first.
 * `confirmPickup` runs `go` at once when the cart uses the whole allowance (or there is none).
 */
export function usePartialPickupConfirm() {
  // The step stays after closing so the dialog's text does not blank while it fades out.
  const [step, setStep] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const confirmPickup = (next: Omit<Pending, 'allowance'> & { allowance: number | null }) => {
    if (next.allowance === null || next.total >= next.allowance) {
      next.go();
      return;
    }
    setStep({ ...next, allowance: next.allowance });
    setOpen(true);
  };
  const dialog = <PartialPickupDialog step={step} open={open} onClose={() => setOpen(false)} />;
  return { confirmPickup, dialog };
}

function PartialPickupDialog({ step, open, onClose }: { step: Pending | null; open: boolean; onClose: () => void }) {
  const forfeited = step ? Math.round((step.allowance - step.total) * 100) / 100 : 0;
  return (
    <Dialog open={open && step !== null} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="partial-pickup-title">
      <DialogTitle id="partial-pickup-title">Use only part of your allowance?</DialogTitle>
      {step && (
        <DialogContent>
          <DialogContentText data-testid="partial-pickup-text">
            This {step.label.toLowerCase()} uses <b>{formatNaira(step.total)}</b> of your <b>{formatNaira(step.allowance)}</b> allowance.
            It can be made only once: the remaining <b>{formatNaira(forfeited)}</b> will be forfeited and cannot be picked up later.
          </DialogContentText>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose} autoFocus sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>Go back</Button>
        <Button variant="contained" color="warning" onClick={() => { onClose(); step?.go(); }}>
          Submit and forfeit {formatNaira(forfeited)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
