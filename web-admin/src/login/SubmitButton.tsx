import { Button, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';

/** Full-width submit button showing a spinner while its request runs. */
export const SubmitButton = ({ label, loading }: { label: string; loading: boolean }) => {
  const translate = useTranslate();
  return (
    <Button
      type="submit"
      variant="contained"
      color="primary"
      size="large"
      fullWidth
      disabled={loading}
      startIcon={loading ? <CircularProgress size={18} color="inherit" /> : undefined}
      sx={{ mt: 1 }}
    >
      {translate(label)}
    </Button>
  );
};
