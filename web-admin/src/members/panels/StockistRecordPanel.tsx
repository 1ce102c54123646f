import { useState } from 'react';
import { Box, Chip } from '@mui/material';
import { DataTable, ListContextProvider, useList, useTranslate } from 'react-admin';
import { DateTimeField } from '../../common/DateTimeField';
import { NairaField, formatNaira } from '../../common/NairaField';
import { Figure, FigureGrid, Loaded, Section, useMember } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { EmptyText, PageSwitch, type Paged, SearchableRows, StatusChip } from './stockist-common';
import { formatMonth } from '../../common/dates';

type Stats = { package: string; rebate: number; rebate_bonus: number; stock_units: number };
type StockRow = { name: string; cost_price: number; quantity: number; in_stock: boolean };
type StockDetail = { name: string; product_purchase_id: string; product_qty: number; price: number; created_at: string; status: string; pickup_type: string };
type StockPurchase = { id: string; pickup_type: string; total_quantity: number; total_price: number; payment_receipt: string | null; payment_method: 'payment_gateway' | 'pop' | 'package'; status: string; created_at: string };
type RebateEarning = { month: string; created_at: string; value: number };

const monthOf = (iso: string) => formatMonth(iso);
const OrderId = ({ id }: { id: string }) => <Box component="code" sx={{ fontSize: 12 }}>{id.slice(0, 8)}</Box>;

const StatCards = ({ member }: { member: string }) => {
  const stats = usePortalQuery<Stats>(`/stockists/${member}/stats`);
  return (
    <Loaded query={stats}>
      {() => (
        <FigureGrid>
          <Figure label="pos.members.stockist.package" value={stats.data!.package} testId="stockist-record-package" />
          <Figure label="pos.members.stockist.rebate" value={`${stats.data!.rebate}%`} />
          <Figure label="pos.members.stockist.rebate_wallet" value={formatNaira(stats.data!.rebate_bonus)} testId="stockist-record-rebate" />
          <Figure label="pos.members.stockist.stock_units" value={stats.data!.stock_units} testId="stockist-record-units" />
        </FigureGrid>
      )}
    </Loaded>
  );
};

/** Seed 001 §2.11 item 12: stock purchase details, one row per line of each purchase. */
const StockDetails = ({ member }: { member: string }) => {
  const translate = useTranslate();
  const details = usePortalQuery<StockDetail[]>(`/product-purchases/${member}/stock-details`);
  return (
    <Section title="pos.members.stockist.stock_details">
      <Loaded query={details}>
        {() => (
          <SearchableRows rows={details.data!} searchOn={['name', 'product_purchase_id', 'status']} testId="stock-details">
            <DataTable resource="stock-details" rowClick={false} bulkActionButtons={false} empty={<EmptyText text="pos.members.stockist.no_stock_purchases" />}>
              <DataTable.Col source="name" label="pos.members.stockist.product" />
              <DataTable.Col source="product_purchase_id" label="pos.members.stockist.order_id" render={(r: StockDetail) => <OrderId id={r.product_purchase_id} />} />
              <DataTable.Col source="pickup_type" label="pos.members.repurchase.pickup_type" render={(r: StockDetail) => translate(`pos.members.stockist.pickup.${r.pickup_type}`, { _: r.pickup_type })} />
              <DataTable.NumberCol source="product_qty" label="pos.members.stockist.quantity" />
              <DataTable.Col source="price" label="pos.members.stockist.price" align="right"><NairaField source="price" /></DataTable.Col>
              <DataTable.Col source="created_at" label="pos.members.repurchase.date"><DateTimeField source="created_at" /></DataTable.Col>
              <DataTable.Col source="status" label="pos.members.repurchase.status" render={(r: StockDetail) => <StatusChip status={r.status} />} />
            </DataTable>
          </SearchableRows>
        )}
      </Loaded>
    </Section>
  );
};

/** What the stockist holds now (the worker's stock read model). */
const StockRecord = ({ member }: { member: string }) => {
  const translate = useTranslate();
  const stock = usePortalQuery<StockRow[]>(`/stockists/${member}/stock`);
  return (
    <Section title="pos.members.stockist.stock_record">
      <Loaded query={stock}>
        {() => (
          <SearchableRows rows={stock.data!} searchOn={['name']} testId="stock-record">
            <DataTable resource="stock" rowClick={false} bulkActionButtons={false} empty={<EmptyText text="pos.members.stockist.no_stock" />}>
              <DataTable.Col source="name" label="pos.members.stockist.product" />
              <DataTable.Col source="cost_price" label="pos.members.stockist.price" align="right"><NairaField source="cost_price" /></DataTable.Col>
              <DataTable.NumberCol source="quantity" label="pos.members.stockist.quantity" />
              <DataTable.Col source="in_stock" label="pos.members.stockist.in_stock" render={(r: StockRow) => (
                <Chip size="small" color={r.in_stock ? 'success' : 'error'} label={translate(r.in_stock ? 'pos.members.stockist.in_stock' : 'pos.members.stockist.out_of_stock')} />
              )} />
            </DataTable>
          </SearchableRows>
        )}
      </Loaded>
    </Section>
  );
};

/** Purchase history: one row per stock purchase, paged by the server, with how it was paid (card, receipt, or the stockist package for the pick-ups). */
const PurchaseHistory = ({ member }: { member: string }) => {
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const purchases = usePortalQuery<Paged<StockPurchase>>(`/product-purchases/stockist/${member}/history?page=${page}`);
  const list = useList({ data: purchases.data?.data ?? [], perPage: 100 });
  return (
    <Section title="pos.members.stockist.purchase_history">
      <Loaded query={purchases}>
        {() => (
          <ListContextProvider value={list}>
            <DataTable resource="stock-purchases" rowClick={false} bulkActionButtons={false} empty={<EmptyText text="pos.members.stockist.no_stock_purchases" />}>
              <DataTable.Col source="id" label="pos.members.stockist.order_id" render={(r: StockPurchase) => <OrderId id={r.id} />} />
              <DataTable.Col source="pickup_type" label="pos.members.repurchase.pickup_type" render={(r: StockPurchase) => translate(`pos.members.stockist.pickup.${r.pickup_type}`, { _: r.pickup_type })} />
              <DataTable.NumberCol source="total_quantity" label="pos.members.stockist.total_products" />
              <DataTable.Col source="total_price" label="pos.members.repurchase.total_price" align="right"><NairaField source="total_price" /></DataTable.Col>
              <DataTable.Col source="payment_receipt" label="pos.members.stockist.payment_mode" render={(r: StockPurchase) => translate(`pos.members.stockist.paid_by.${r.payment_method}`)} />
              <DataTable.Col source="status" label="pos.members.repurchase.status" render={(r: StockPurchase) => <StatusChip status={r.status} />} />
              <DataTable.Col source="created_at" label="pos.members.repurchase.date"><DateTimeField source="created_at" showTime /></DataTable.Col>
            </DataTable>
          </ListContextProvider>
        )}
      </Loaded>
      <PageSwitch paged={purchases.data} page={page} onChange={setPage} />
    </Section>
  );
};

const RebateEarnings = ({ member }: { member: string }) => {
  const earnings = usePortalQuery<RebateEarning[]>(`/stockists/${member}/rebate-earnings`);
  return (
    <Section title="pos.members.stockist.rebate_earnings">
      <Loaded query={earnings}>
        {() => (
          <SearchableRows rows={earnings.data!.map((e) => ({ ...e, label: monthOf(e.created_at) }))} searchOn={['label']} testId="rebate-earnings">
            <DataTable resource="rebate-earnings" rowClick={false} bulkActionButtons={false} empty={<EmptyText text="pos.members.stockist.no_rebates" />}>
              <DataTable.Col source="label" label="pos.members.stockist.month" />
              <DataTable.Col source="value" label="pos.members.stockist.value" align="right"><NairaField source="value" /></DataTable.Col>
            </DataTable>
          </SearchableRows>
        )}
      </Loaded>
    </Section>
  );
};

/** Seed 001 §2.11 item 12: the stockist's record as the stockist sees it on their own portal. */
export const StockistRecordPanel = () => {
  const member = useMember()!;
  return (
    <Box data-testid="stockist-record">
      <StatCards member={member.id} />
      <PurchaseHistory member={member.id} />
      <StockRecord member={member.id} />
      <StockDetails member={member.id} />
      <RebateEarnings member={member.id} />
    </Box>
  );
};
