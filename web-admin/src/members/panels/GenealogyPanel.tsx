import { Alert, Avatar, Chip, Stack } from '@mui/material';
import { DataTable, ListContextProvider, NumberField, useList, useTranslate } from 'react-admin';
import type { DirectDownline } from '@portal/services/contracts/genealogy';
import { ActiveOnly, Loaded, Section, useMember } from '../common';
import { usePortalQuery } from '../../api/usePortalQuery';
import { storageUrl } from '../storage';
import { PlacementTree } from './PlacementTree';
import { ResponsiveDataTable } from '../../common/ResponsiveDataTable';

/** Seed 001 §2.11 item 3: the member's direct downlines (the Network Structure), as a table under the placement tree. */
const Genealogy = () => {
  const member = useMember()!;
  const translate = useTranslate();
  const downlines = usePortalQuery<DirectDownline[]>(`/users/${member.id}/direct-downlines`);
  const list = useList({ data: (downlines.data ?? []).map((d) => ({ ...d, id: d.uuid })), perPage: 10 });
  return (
    <Section title="pos.members.genealogy.direct" testId="direct-downlines">
      <Loaded query={downlines}>
        {() => (
          <ListContextProvider value={list}>
            <ResponsiveDataTable phoneColumns={['name', 'leg', 'active']} resource="direct-downlines" rowClick={false} bulkActionButtons={false} empty={<Alert severity="info">{translate('pos.members.genealogy.empty')}</Alert>}>
              <DataTable.Col
                source="name"
                label="pos.members.genealogy.name"
                render={(d: DirectDownline) => (
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Avatar src={storageUrl(d.photo_path)} sx={{ width: 28, height: 28, fontSize: 14 }}>
                      {d.first_name.charAt(0)}
                    </Avatar>
                    <span>{d.name}</span>
                  </Stack>
                )}
              />
              <DataTable.Col source="username" label="pos.members.genealogy.username" render={(d: DirectDownline) => `@${d.username}`} />
              <DataTable.Col source="package" label="pos.members.genealogy.package" />
              <DataTable.Col source="leg" label="pos.members.genealogy.leg" render={(d: DirectDownline) => (d.leg ? translate(`pos.members.genealogy.${d.leg}`) : '—')} />
              <DataTable.Col source="downlines" label="pos.members.genealogy.downlines">
                <NumberField source="downlines" />
              </DataTable.Col>
              <DataTable.Col
                source="active"
                label="pos.members.genealogy.status"
                render={(d: DirectDownline) => (
                  <Chip size="small" color={d.active ? 'success' : 'default'} variant={d.active ? 'filled' : 'outlined'} label={translate(d.active ? 'pos.members.status.active' : 'pos.members.status.inactive')} />
                )}
              />
            </ResponsiveDataTable>
          </ListContextProvider>
        )}
      </Loaded>
    </Section>
  );
};

export const GenealogyPanel = () => (
  <ActiveOnly>
    <Section title="pos.members.genealogy.chart" testId="placement-tree">
      <PlacementTree />
    </Section>
    <Genealogy />
  </ActiveOnly>
);
