import { Alert, Button } from '@mui/material';
import { useNavigate } from 'react-router';

export const INVALID_EMAIL_MESSAGE = 'Invalid email address, please return to previous page';

/** Shown by pages that need ?email= when it is missing (seed 000 §5). */
export function MissingEmailAlert() {
  const navigate = useNavigate();
  return (
    <Alert
      severity="warning"
      data-testid="invalid-email"
      action={
        <Button color="inherit" size="small" onClick={() => navigate(-1)}>
          Go back
        </Button>
      }
    >
      {INVALID_EMAIL_MESSAGE}
    </Alert>
  );
}
