import { Box, Container, Paper, Typography } from '@mui/material';
import { Logo } from '../components/Logo';
import { AppLink } from '../components/FormLinks';
import { PrivacyText } from '../content/legal';

export default function PrivacyPolicyPage() {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', py: { xs: 3, sm: 6 } }}>
      <Container maxWidth="md">
        <Box sx={{ mb: 3, display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Logo />
          <AppLink to="/register">Back to registration</AppLink>
        </Box>
        <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
            Privacy policy
          </Typography>
          <PrivacyText />
        </Paper>
      </Container>
    </Box>
  );
}
