import { Alert, Avatar, Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Show, TabbedShowLayout, TabbedShowLayoutTabs, useRecordContext, useTranslate } from 'react-admin';
import { DateTimeField } from '../common/DateTimeField';
import type { AdminMemberDetail } from '@portal/services/contracts/members';
import { useCanWrite } from './common';
import { BankPanel } from './panels/BankPanel';
import { DashboardPanel } from './panels/DashboardPanel';
import { GenealogyPanel } from './panels/GenealogyPanel';
import { LoginPanel } from './panels/LoginPanel';
import { MessagePanel } from './panels/MessagePanel';
import { PayoutPanel } from './panels/PayoutPanel';
import { ProcessedOrdersPanel } from './panels/ProcessedOrdersPanel';
import { ProfilePanel } from './panels/ProfilePanel';
import { RepurchasePanel } from './panels/RepurchasePanel';
import { StockistProfilePanel } from './panels/StockistProfilePanel';
import { StockistRecordPanel } from './panels/StockistRecordPanel';
import { WalletPanel } from './panels/WalletPanel';
import { storageUrl } from './storage';

const MemberTitle = () => {
  const record = useRecordContext<AdminMemberDetail>();
  const translate = useTranslate();
  return <>{record ? translate('pos.members.show_title', { name: record.full_name }) : translate('pos.members.loading')}</>;
};

/** Who the page is about, above the panels. */
const MemberHeader = () => {
  const member = useRecordContext<AdminMemberDetail>();
  const translate = useTranslate();
  const canWrite = useCanWrite();
  if (!member) return null;
  return (
    <Card variant="outlined" sx={{ mb: 1 }} data-testid="member-header">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <Avatar src={storageUrl(member.photo_path)} sx={{ width: 64, height: 64, fontSize: 26 }}>
            {member.first_name.charAt(0)}
          </Avatar>
          <Box sx={{ flex: 1 }}>
            <Typography variant="h6" component="h2" data-testid="member-name">
              {member.full_name}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              @{member.username} · {member.email} · {member.phone}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {translate('resources.members.fields.created_at')}: <DateTimeField source="created_at" showTime component="span" variant="caption" />
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            {member.package_name ? <Chip label={member.package_name} color="primary" variant="outlined" /> : null}
            {member.rank_name ? <Chip label={member.rank_name} color="secondary" variant="outlined" /> : null}
            <Chip
              data-testid="member-status"
              label={translate(member.status ? 'pos.members.status.active' : 'pos.members.status.inactive')}
              color={member.status ? 'success' : 'default'}
            />
          </Stack>
        </Stack>
        {canWrite ? null : (
          <Alert severity="info" sx={{ mt: 2 }}>
            {translate('pos.members.read_only')}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
};

/**
 * One member (seed 001 §2.11): a tab per panel. Only Send Message and Make Payout work for an
 * inactive member; both are writes, so finance staff do not see them.
 */
export const MemberShow = () => (
  <Show title={<MemberTitle />} actions={false}>
    <Box sx={{ p: 2, pb: 0 }}>
      <MemberHeader />
    </Box>
    <MemberPanels />
  </Show>
);

/** The panels; a stockist's three (seed 001 §2.11 items 11–13) only when the member is a stockist. */
const MemberPanels = () => {
  const canWrite = useCanWrite();
  const member = useRecordContext<AdminMemberDetail>();
  const stockist = member?.is_stockist === true;
  return (
    // Up to thirteen panels do not fit one row on a laptop: the tab bar scrolls instead of widening the page.
    <TabbedShowLayout tabs={<TabbedShowLayoutTabs variant="scrollable" scrollButtons="auto" />}>
      <TabbedShowLayout.Tab label="pos.members.panels.dashboard">
        <DashboardPanel />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="pos.members.panels.profile" path="profile">
        <ProfilePanel />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="pos.members.panels.bank" path="bank">
        <BankPanel />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="pos.members.panels.wallet" path="wallet">
        <WalletPanel />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="pos.members.panels.repurchase" path="repurchases">
        <RepurchasePanel />
      </TabbedShowLayout.Tab>
      {stockist ? (
        <TabbedShowLayout.Tab label="pos.members.panels.stockist_profile" path="stockist-profile">
          <StockistProfilePanel />
        </TabbedShowLayout.Tab>
      ) : null}
      {stockist ? (
        <TabbedShowLayout.Tab label="pos.members.panels.stockist_record" path="stockist-record">
          <StockistRecordPanel />
        </TabbedShowLayout.Tab>
      ) : null}
      {stockist ? (
        <TabbedShowLayout.Tab label="pos.members.panels.processed_orders" path="processed-orders">
          <ProcessedOrdersPanel />
        </TabbedShowLayout.Tab>
      ) : null}
      <TabbedShowLayout.Tab label="pos.members.panels.genealogy" path="genealogy">
        <GenealogyPanel />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="pos.members.panels.login" path="login">
        <LoginPanel />
      </TabbedShowLayout.Tab>
      {canWrite ? (
        <TabbedShowLayout.Tab label="pos.members.panels.message" path="message">
          <MessagePanel />
        </TabbedShowLayout.Tab>
      ) : null}
      {canWrite ? (
        <TabbedShowLayout.Tab label="pos.members.panels.payout" path="payout">
          <PayoutPanel />
        </TabbedShowLayout.Tab>
      ) : null}
    </TabbedShowLayout>
  );
};
