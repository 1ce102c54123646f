import { Alert, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { StockistApi } from '@portal/services/contracts/stockists';
import { formatNaira } from '../../common/NairaField';
import { Line, Loaded, Section, useMember } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { StatusChip } from './stockist-common';

/** Seed 001 §2.11 item 11: the member's store (GET /stockists/user/{id}/single). */
export const StockistProfilePanel = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const store = usePortalQuery<StockistApi | null>(`/stockists/user/${member.id}/single`);
  return (
    <Section title="pos.members.panels.stockist_profile" testId="stockist-profile">
      <Loaded query={store}>
        {() =>
          store.data ? (
            <>
              <Line label="pos.members.stockist.store_name" value={store.data.store_name} />
              <Line label="pos.members.stockist.store_address" value={store.data.store_address} />
              <Line label="pos.members.stockist.store_state" value={<Typography component="span" variant="body2" sx={{ textTransform: 'capitalize', fontWeight: 500 }}>{store.data.store_state}</Typography>} />
              <Line label="pos.members.stockist.package" value={`${store.data.stockist_package} (${formatNaira(store.data.stockist_package_value)}, ${store.data.rebate}% ${translate('pos.members.stockist.rebate').toLowerCase()})`} />
              <Line label="pos.members.stockist.contact" value={store.data.store_phone} />
              <Line label="pos.members.stockist.signee" value={store.data.referrer} />
              <Line label="pos.members.stockist.status_label" value={<StatusChip status={store.data.status} />} />
            </>
          ) : (
            <Alert severity="info">{translate('pos.members.stockist.no_store')}</Alert>
          )
        }
      </Loaded>
    </Section>
  );
};
