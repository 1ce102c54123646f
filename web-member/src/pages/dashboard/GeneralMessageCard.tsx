import { Card, CardContent, Skeleton, Typography } from '@mui/material';
import Campaign from '@mui/icons-material/CampaignOutlined';
import { useSettings } from '../../api/earnings-queries';
import { CardTitle } from './common';

// ── General message ──────────────────────────────────────────────────────────────────────

export function GeneralMessageCard() {
  const settings = useSettings();
  const subject = settings.data?.general_message_subject?.trim();
  const message = settings.data?.general_message?.trim();
  return (
    <Card component="section" aria-labelledby="general-message-title" data-testid="general-message" sx={{ height: '100%', bgcolor: '#fffaf0', borderColor: '#f3e2bd' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <CardTitle icon={<Campaign color="secondary" fontSize="small" />} title="General Message" id="general-message-title" />
        {settings.isPending ? (
          <>
            <Skeleton width="60%" height={28} />
            <Skeleton />
            <Skeleton width="80%" />
          </>
        ) : subject || message ? (
          <>
            {subject && (
              <Typography sx={{ fontWeight: 700, mb: 0.75 }} data-testid="general-message-subject">
                {subject}
              </Typography>
            )}
            {message && (
              <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }} data-testid="general-message-body">
                {message}
              </Typography>
            )}
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">
            There is no message at the moment.
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
