import { useState } from 'react';
import { DataTable, ListContextProvider, useList, useTranslate } from 'react-admin';
import { DateTimeField } from '../../common/DateTimeField';
import { NairaField } from '../../common/NairaField';
import { Loaded, Section, useMember } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { EmptyText, PageSwitch, type Paged, StatusChip } from './stockist-common';

type ProcessedOrder = { id: string; order_id: string; username: string; first_name: string; last_name: string; phone: string; email: string; pickup_type: string; total_price: number; status: string; created_at: string; order_date: string };

/** Seed 001 §2.11 item 13: the orders this stockist handed over (GET /product-purchases/vendor/{id}/processed-orders). */
export const ProcessedOrdersPanel = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const orders = usePortalQuery<Paged<ProcessedOrder>>(`/product-purchases/vendor/${member.id}/processed-orders?page=${page}`);
  const list = useList({ data: (orders.data?.data ?? []).map((o) => ({ ...o, name: `${o.first_name} ${o.last_name}` })), perPage: 100 });
  return (
    <Section title="pos.members.panels.processed_orders" testId="processed-orders">
      <Loaded query={orders}>
        {() => (
          <ListContextProvider value={list}>
            <DataTable resource="processed-orders" rowClick={false} bulkActionButtons={false} empty={<EmptyText text="pos.members.stockist.no_processed_orders" />}>
              <DataTable.Col source="username" label="pos.members.stockist.username" />
              <DataTable.Col source="name" label="pos.members.stockist.name" />
              <DataTable.Col source="phone" label="pos.members.stockist.phone" />
              <DataTable.Col source="email" label="pos.members.stockist.email" />
              <DataTable.Col source="pickup_type" label="pos.members.repurchase.pickup_type" render={(o: ProcessedOrder) => translate(`pos.members.pickup_type.${o.pickup_type}`, { _: o.pickup_type })} />
              <DataTable.Col source="order_id" label="pos.members.stockist.order_id" render={(o: ProcessedOrder) => <code style={{ fontSize: 12 }}>{o.order_id}</code>} />
              <DataTable.Col source="total_price" label="pos.members.repurchase.total_price" align="right">
                <NairaField source="total_price" />
              </DataTable.Col>
              <DataTable.Col source="status" label="pos.members.repurchase.status" render={(o: ProcessedOrder) => <StatusChip status={o.status} />} />
              <DataTable.Col source="created_at" label="pos.members.stockist.processed_on">
                <DateTimeField source="created_at" showTime />
              </DataTable.Col>
            </DataTable>
          </ListContextProvider>
        )}
      </Loaded>
      <PageSwitch paged={orders.data} page={page} onChange={setPage} />
    </Section>
  );
};
