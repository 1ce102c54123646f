import { Chip, Stack } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { usePortalQuery } from '../api/usePortalQuery';
import { CommandButton } from '../common/CommandButton';
import { useCanWrite } from '../packages/common';
import { type Column, ReceiptLink, Section, Stat, StatusChip, StockistInfo, TwoLines, ViewProducts, m, naira, when } from './parts';

/**
 * The transactions screen's Stockist History (seed 002 "Transactions screen" tab 4 and its modals):
 * three stat cards; stockist registrations, pending upgrades, stockist purchases and product claims,
 * each paged, with approve / disapprove behind confirmations (admins only; finance staff read).
 */
type StockistRow = { id: string; user_uuid: string; store_name: string; username: string; stockist_package: string; store_address: string; store_state: string; store_phone: string; status: string; reg_date: string; payment_id: string; payment_receipt: string | null };
type UpgradeRow = StockistRow & { payment_status: string; payment_date: string; stockist_package_value: number; from_package: string | null };
type ClaimRow = { id: string; username: string; name: string; product_qty: number; worth: number; pickup_type: string; status: string; created_at: string };
type PurchaseRow = { id: string; user_uuid: string; username: string; store_name: string; stockist_package: string; pickup_type: string; total_quantity: number; total_price: number; created_at: string; status: string; payment_receipt: string | null; payment_method: 'payment_gateway' | 'pop' | 'package'; products: Array<{ name: string; product_qty: number }> };

const capitalised = (s: string) => s.replace(/\b\w/g, (c) => c.toUpperCase());

/** An admin's decision on a row, behind a confirmation that names it. */
function Decide({ action, method = 'PATCH', color, path, content }: { action: string; method?: 'PATCH' | 'PUT'; color: 'success' | 'error'; path: (r: Record<string, any>) => string; content?: string }) {
  const translate = useTranslate();
  const label = translate(m(`actions.${action}`));
  return (
    <CommandButton label={label} method={method} color={color} path={path} confirmTitle={translate(m('actions.confirm_title'), { action: label })} confirmContent={content ? translate(m(`actions.${content}`)) : translate(m('actions.confirm_content'), { action: label.toLowerCase() })} />
  );
}

export const StockistHistory = () => {
  const translate = useTranslate();
  const canWrite = useCanWrite();
  const stats = usePortalQuery<{ stockist_count: number; stockist_purchases_sum: number; stockist_sales_sum: number }>('/stockists/stats');
  const pickup = (type: string) => translate(m(`pickup_types.${type}`), { _: type });
  const c = (key: string) => m(`columns.${key}`);

  const registrationColumns: Column<StockistRow>[] = [
    { label: c('stockist'), cell: (r) => <TwoLines main={r.store_name} sub={r.username} /> },
    { label: c('package'), cell: (r) => r.stockist_package },
    { label: c('address'), cell: (r) => <TwoLines main={r.store_address} sub={`${capitalised(r.store_state)} · ${r.store_phone}`} /> },
    { label: c('status'), cell: (r) => <TwoLines main={<StatusChip status={r.status} />} sub={when(r.reg_date)} /> },
  ];
  const upgradeColumns: Column<UpgradeRow>[] = [
    { label: c('stockist'), cell: (r) => <TwoLines main={r.store_name} sub={r.username} /> },
    { label: c('package'), cell: (r) => <TwoLines main={`${r.from_package ?? ''} → ${r.stockist_package}`} sub={naira(r.stockist_package_value)} /> },
    { label: c('contact'), cell: (r) => <TwoLines main={capitalised(r.store_state)} sub={r.store_phone} /> },
    { label: c('status'), cell: (r) => <TwoLines main={<StatusChip status={r.payment_status} />} sub={when(r.payment_date)} /> },
  ];
  const purchaseColumns: Column<PurchaseRow>[] = [
    { label: c('stockist'), cell: (r) => <TwoLines main={r.store_name} sub={r.username} /> },
    { label: c('package'), cell: (r) => <TwoLines main={r.stockist_package} sub={pickup(r.pickup_type)} /> },
    { label: c('orders'), cell: (r) => <ViewProducts products={r.products} /> },
    { label: c('total'), cell: (r) => naira(r.total_price) },
    { label: c('status'), cell: (r) => <TwoLines main={<StatusChip status={r.status} />} sub={when(r.created_at)} /> },
  ];
  const claimColumns: Column<ClaimRow>[] = [
    { label: c('username'), cell: (r) => r.username },
    { label: c('product'), cell: (r) => <TwoLines main={`${r.name} × ${r.product_qty}`} sub={pickup(r.pickup_type)} /> },
    { label: c('unit_price'), cell: (r) => naira(r.worth) },
    { label: c('status'), cell: (r) => <TwoLines main={<StatusChip status={r.status} />} sub={when(r.created_at)} /> },
  ];

  return (
    <Stack spacing={2} sx={{ mt: { xs: 2, md: 0 }, minWidth: 0 }}>
      <Title title={translate(m('title'))} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Stat label={m('stats.stockists')} value={stats.data?.stockist_count ?? 0} testId="stat-stockists" />
        <Stat label={m('stats.purchases')} value={naira(stats.data?.stockist_purchases_sum ?? 0)} testId="stat-purchases" />
        <Stat label={m('stats.sales')} value={naira(stats.data?.stockist_sales_sum ?? 0)} testId="stat-sales" />
      </Stack>
      <Section<StockistRow>
        name="registrations" path="/stockists/all" columns={registrationColumns}
        actions={(r) => (
          <>
            <ReceiptLink path={r.payment_receipt} />
            {canWrite && r.status === 'pending' && <Decide action="approve_stockist" color="success" path={(x) => `/stockists/${x.payment_id}/approve-registration`} />}
            {canWrite && r.status === 'pending' && <Decide action="disapprove_stockist" color="error" path={(x) => `/stockists/${x.payment_id}/disapprove-registration`} />}
            {r.status === 'approved' && <StockistInfo row={r} />}
          </>
        )}
      />
      <Section<UpgradeRow>
        name="upgrades" path="/stockists/upgrades" columns={upgradeColumns}
        actions={(r) => (
          <>
            <ReceiptLink path={r.payment_receipt} />
            {canWrite && r.payment_status === 'processing' && <Decide action="approve_upgrade" color="success" path={(x) => `/stockists/${x.payment_id}/approve-upgrade`} />}
            {canWrite && r.payment_status === 'processing' && <Decide action="disapprove_upgrade" color="error" path={(x) => `/stockists/${x.payment_id}/disapprove-upgrade`} />}
          </>
        )}
      />
      <Section<PurchaseRow>
        name="purchases" path="/stockists/product-orders" columns={purchaseColumns}
        actions={(r) => (
          <>
            {r.payment_method === 'payment_gateway' ? <Chip size="small" variant="outlined" label={translate(m('actions.paid_by_card'))} /> : <ReceiptLink path={r.payment_receipt} />}
            {canWrite && r.status === 'processing' && <Decide action="approve_purchase" color="success" path={(x) => `/product-purchases/${x.id}/approve-stock`} />}
            {/* An unpaid card checkout may be declined too (abandoned); it cannot be approved before its money arrives. */}
            {canWrite && (r.status === 'processing' || r.status === 'awaiting_payment') && <Decide action="disapprove_purchase" color="error" path={(x) => `/product-purchases/${x.id}/disapprove-stock`} />}
          </>
        )}
      />
      <Section<ClaimRow>
        name="claims" path="/product-claims/all?status=processing" columns={claimColumns}
        actions={(r) => canWrite && r.status === 'processing' ? (
          <>
            <Decide action="approve_claim" method="PUT" color="success" path={(x) => `/product-claims/${x.id}/approve`} content="approve_claim_content" />
            {r.pickup_type !== 'repurchase_pickup' && <Decide action="decline_claim" method="PUT" color="error" path={(x) => `/product-claims/${x.id}/decline`} content="decline_claim_content" />}
          </>
        ) : null}
      />
    </Stack>
  );
};
