import { useState } from 'react';
import { Link } from '@mui/material';

/** A text button that runs an async action once at a time (resend code links). */
export function ResendLink({ onResend, children = 'Resend code' }: { onResend: () => Promise<void>; children?: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Link
      component="button"
      type="button"
      variant="body2"
      disabled={busy}
      sx={{ opacity: busy ? 0.6 : 1 }}
      onClick={async () => {
        setBusy(true);
        try {
          await onResend();
        } finally {
          setBusy(false);
        }
      }}
    >
      {busy ? 'Sending…' : children}
    </Link>
  );
}
