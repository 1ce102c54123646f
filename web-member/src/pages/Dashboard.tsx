import { Box, Typography } from '@mui/material';
import Grid from '@mui/material/Grid';
import { useMember } from '../auth/member-context';
import { MatchingStatusCard } from '../components/MatchingStatus';
import { BonusCards } from './dashboard/BonusCards';
import { CpvCard } from './dashboard/CpvCard';
import { GeneralMessageCard } from './dashboard/GeneralMessageCard';
import { ClaimedIncentivesCard, IncentiveCard } from './dashboard/Incentives';
import { InviteCard } from './dashboard/InviteCard';
import { PackageCard } from './dashboard/PackageCard';
import { SectionHeading } from './dashboard/common';

function greeting(now = new Date()): string {
  const h = now.getHours();
  if (h < 12) return 'Good morning';
  if (h < 17) return 'Good afternoon';
  return 'Good evening';
}

// ── The page ─────────────────────────────────────────────────────────────────────────────

export default function DashboardPage() {
  const user = useMember();
  return (
    <>
      <Box sx={{ mb: { xs: 2.5, sm: 3.5 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.45rem', sm: '1.75rem' } }}>
          {greeting()}, {user.first_name}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Your package, points, bonuses and incentives at a glance.
        </Typography>
      </Box>

      <Grid container spacing={{ xs: 2, sm: 3 }}>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}>
          <PackageCard />
        </Grid>
        <Grid size={{ xs: 12, md: 6, lg: 4 }}>
          <CpvCard />
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <IncentiveCard />
        </Grid>

        <Grid size={12}>
          <SectionHeading>Earnings</SectionHeading>
        </Grid>
        <BonusCards />
        <Grid size={12}>
          <MatchingStatusCard />
        </Grid>

        <Grid size={{ xs: 12, md: 7 }}>
          <InviteCard />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <GeneralMessageCard />
        </Grid>

        <Grid size={12}>
          <ClaimedIncentivesCard />
        </Grid>
      </Grid>
    </>
  );
}
