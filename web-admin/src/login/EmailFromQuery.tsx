import { useEffect, useRef } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Alert, Box, Link } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { LOGIN_PATH } from '../api/token';

/** Reads `?email=`. Pages that need it warn, once, when it is missing (seed 000 §5). */
export const useEmailFromQuery = (): string | null => {
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() || null;
  const notify = useNotify();
  const warned = useRef(false);
  useEffect(() => {
    if (!email && !warned.current) {
      warned.current = true;
      notify('pos.error.invalid_email_query', { type: 'warning' });
    }
  }, [email, notify]);
  return email;
};

export const MissingEmail = () => {
  const translate = useTranslate();
  return (
    <>
      <Alert severity="warning">{translate('pos.error.invalid_email_query')}</Alert>
      <BackToLogin />
    </>
  );
};

export const BackToLogin = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', mt: 2 }}>
      <Link component={RouterLink} to={LOGIN_PATH} variant="body2">
        {translate('pos.auth.back_to_login')}
      </Link>
    </Box>
  );
};
