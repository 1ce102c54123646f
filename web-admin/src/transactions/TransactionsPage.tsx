import type { ComponentType } from 'react';
import { Box, Tab, Tabs, useMediaQuery, type Theme } from '@mui/material';
import { ResourceContextProvider, useBasename, useTranslate } from 'react-admin';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import packagePayments from '../package-payments';
import productSales from '../product-sales';
import registrations from '../registrations';
import upgrades from '../upgrades';
import withdrawals from '../withdrawals';
import { StockistHistory } from '../stockist-history/StockistHistory';

/**
 * The transactions screen (seed 002 "Transactions screen"): four side tabs, Withdrawal History,
 * Registration History, Product Sales History and Stockist History, at /admin/transactions/<tab>.
 * The first three show the resources' own lists (their filters and pages stay in the address, one
 * list at a time, so Registration History has its three lists as sub-tabs); rows still open the
 * resources' own pages. On a phone the side tabs lie across the top.
 */
type Sub = { path: string; label: string; resource: string; list: ComponentType };
const registrationLists: Sub[] = [
  { path: '', label: 'pos.transactions.registration_tabs.registrations', resource: 'registrations', list: registrations.list },
  { path: 'upgrades', label: 'pos.transactions.registration_tabs.upgrades', resource: 'upgrades', list: upgrades.list },
  { path: 'payments', label: 'pos.transactions.registration_tabs.payments', resource: 'package-payments', list: packagePayments.list },
];

const tabs = [
  { path: 'withdrawals', label: 'pos.transactions.tabs.withdrawals' },
  { path: 'registrations', label: 'pos.transactions.tabs.registrations' },
  { path: 'product-sales', label: 'pos.transactions.tabs.product_sales' },
  { path: 'stockists', label: 'pos.transactions.tabs.stockists' },
] as const;

const ResourceList = ({ resource, list: List }: { resource: string; list: ComponentType }) => (
  <ResourceContextProvider value={resource}>
    <List />
  </ResourceContextProvider>
);

const RegistrationHistory = ({ sub, go }: { sub: string; go: (path: string) => void }) => {
  const translate = useTranslate();
  const current = registrationLists.find((l) => l.path === sub) ?? registrationLists[0]!;
  return (
    <>
      <Tabs value={current.path} onChange={(_event, next: string) => go(next ? `registrations/${next}` : 'registrations')} variant="scrollable" sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {registrationLists.map((l) => <Tab key={l.path} value={l.path} label={translate(l.label)} data-testid={`registration-tab-${l.path || 'registrations'}`} />)}
      </Tabs>
      <ResourceList key={current.resource} resource={current.resource} list={current.list} />
    </>
  );
};

export const TransactionsPage = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const sideways = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'));
  const [tab, sub = ''] = pathname.slice(`${basename}/transactions/`.length).split('/');
  if (!tabs.some((t) => t.path === tab)) return <Navigate to={`${basename}/transactions/withdrawals`} replace />;
  const go = (path: string) => navigate(`${basename}/transactions/${path}`);
  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: { md: 2 }, mt: 1 }}>
      <Tabs
        orientation={sideways ? 'vertical' : 'horizontal'}
        variant="scrollable"
        scrollButtons="auto"
        value={tab}
        onChange={(_event, next: string) => go(next)}
        aria-label={translate('pos.transactions.title')}
        sx={{ flexShrink: 0, borderRight: { md: 1 }, borderBottom: { xs: 1, md: 0 }, borderColor: { xs: 'divider', md: 'divider' }, minWidth: { md: 200 }, '& .MuiTab-root': { alignItems: { md: 'flex-start' }, textAlign: 'left' } }}
      >
        {tabs.map((t) => <Tab key={t.path} value={t.path} label={translate(t.label)} data-testid={`transactions-tab-${t.path}`} />)}
      </Tabs>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {tab === 'withdrawals' ? <ResourceList resource="withdrawals" list={withdrawals.list} /> : null}
        {tab === 'registrations' ? <RegistrationHistory sub={sub} go={go} /> : null}
        {tab === 'product-sales' ? <ResourceList resource="product-sales" list={productSales.list} /> : null}
        {tab === 'stockists' ? <StockistHistory /> : null}
      </Box>
    </Box>
  );
};
