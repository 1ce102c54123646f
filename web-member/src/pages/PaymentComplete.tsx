import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { Box, CircularProgress, Typography } from '@mui/material';
import type { PaymentCompleteMessage } from '../components/CardPaymentDialog';
import { paymentsApi } from '../api/payments';
import { getToken } from '../auth/token';

/**
 * Where the payment provider sends the browser back (callback_url, and cancel_action with
 * cancelled=1). Inside the payment dialog's iframe it tells the portal page at once, which then
 * verifies the payment; opened on its own (the provider's page in a tab), it verifies the payment
 * itself and returns to the portal.
 */
export default function PaymentCompletePage() {
  const [params] = useSearchParams();
  const reference = params.get('reference') || params.get('trxref');
  const cancelled = params.get('cancelled') === '1';

  useEffect(() => {
    const message: PaymentCompleteMessage = { type: 'payment-complete', reference, cancelled };
    if (window.parent !== window) {
      window.parent.postMessage(message, window.location.origin);
      return;
    }
    let stopped = false;
    void (async () => {
      if (reference && !cancelled && getToken()) {
        try {
          await paymentsApi.verify(reference);
        } catch {
          /* the portal page shows where the payment stands */
        }
      }
      // The welcome page sends a paid member on to the dashboard, and a signed-out visitor to login.
      if (!stopped) window.location.replace('/welcome');
    })();
    return () => {
      stopped = true;
    };
  }, [reference, cancelled]);

  return (
    <Box role="status" aria-live="polite" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3, bgcolor: 'background.default' }}>
      <Box sx={{ textAlign: 'center' }}>
        <CircularProgress size={32} />
        <Typography sx={{ mt: 1.5, fontWeight: 600 }}>Returning to the portal…</Typography>
      </Box>
    </Box>
  );
}
