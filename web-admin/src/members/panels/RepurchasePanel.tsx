import { useState } from 'react';
import { Alert, Box, Chip, Pagination } from '@mui/material';
import { DataTable, ListContextProvider, useList, useTranslate } from 'react-admin';
import { DateTimeField } from '../../common/DateTimeField';
import type { ProductPurchase } from '@portal/services/contracts/purchases';
import { NairaField } from '../../common/NairaField';
import { ActiveOnly, Loaded, Section, useMember } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { ResponsiveDataTable } from '../../common/ResponsiveDataTable';

type Paged<T> = { data: T[]; current_page: number; last_page: number; per_page: number; total: number };

const statusColors: Record<string, 'warning' | 'info' | 'success' | 'error' | 'default'> = { awaiting_payment: 'default', pending: 'warning', processing: 'info', approved: 'success', completed: 'success', declined: 'error' };

/** A stockist field, or 'N/A' while no stockist has handled the order. */
const OrNA = ({ value }: { value: string | null }) => {
  const translate = useTranslate();
  return <>{value === null || value.trim() === '' ? translate('pos.members.not_available') : value}</>;
};

const Repurchases = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const history = usePortalQuery<Paged<ProductPurchase>>(`/product-purchases/user/${member.id}/history?page=${page}`);
  const list = useList({ data: history.data?.data ?? [], perPage: 100 });
  return (
    <Section title="pos.members.repurchase.title" testId="repurchase-history">
      <Loaded query={history}>
        {() => (
          <ListContextProvider value={list}>
            <ResponsiveDataTable phoneColumns={['id', 'total_price', 'status']} resource="product-purchases" rowClick={false} bulkActionButtons={false} empty={<Alert severity="info">{translate('pos.members.repurchase.empty')}</Alert>}>
              <DataTable.Col source="id" label="pos.members.repurchase.order" render={(p: ProductPurchase) => <Box component="span" sx={{ fontFamily: 'monospace', fontSize: 12 }}>{p.id}</Box>} />
              <DataTable.Col source="pickup_type" label="pos.members.repurchase.pickup_type" render={(p: ProductPurchase) => translate(`pos.members.pickup_type.${p.pickup_type}`, { _: p.pickup_type })} />
              <DataTable.Col source="store_name" label="pos.members.repurchase.store_name" render={(p: ProductPurchase) => <OrNA value={p.store_name} />} />
              <DataTable.Col source="store_address" label="pos.members.repurchase.location" render={(p: ProductPurchase) => <OrNA value={p.store_address} />} />
              <DataTable.Col source="store_state" label="pos.members.repurchase.state" render={(p: ProductPurchase) => <OrNA value={p.store_state} />} />
              <DataTable.Col source="store_phone" label="pos.members.repurchase.contact" render={(p: ProductPurchase) => <OrNA value={p.store_phone} />} />
              <DataTable.NumberCol source="total_quantity" label="pos.members.repurchase.total_quantity" />
              <DataTable.Col source="total_price" label="pos.members.repurchase.total_price" align="right">
                <NairaField source="total_price" />
              </DataTable.Col>
              <DataTable.Col
                source="status"
                label="pos.members.repurchase.status"
                render={(p: ProductPurchase) => (
                  <Chip size="small" color={statusColors[p.status] ?? 'default'} label={translate(`pos.members.purchase_status.${p.status}`, { _: p.status })} title={p.status_reason ?? undefined} />
                )}
              />
              <DataTable.Col source="created_at" label="pos.members.repurchase.date">
                <DateTimeField source="created_at" showTime />
              </DataTable.Col>
            </ResponsiveDataTable>
          </ListContextProvider>
        )}
      </Loaded>
      {history.data && history.data.last_page > 1 ? (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
          <Pagination count={history.data.last_page} page={page} onChange={(_event, next) => setPage(next)} size="small" />
        </Box>
      ) : null}
    </Section>
  );
};

/** Seed 001 §2.11 item 10: the member's product orders, newest first (GET /product-purchases/user/{id}/history). */
export const RepurchasePanel = () => (
  <ActiveOnly>
    <Repurchases />
  </ActiveOnly>
);
