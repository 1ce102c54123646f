import DownloadIcon from '@mui/icons-material/GetApp';
import { useState } from 'react';
import { Button, useListContext, useNotify } from 'react-admin';
import { downloadListCsv } from './csvExporter';

/**
 * "Export" on every back-office list: the whole list as the server has it, with the filters and
 * sort on screen (common/csvExporter.ts). A read: finance staff export like admins.
 */
export const ExportCsvButton = () => {
  const { resource, filterValues, filter, sort, total } = useListContext();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await downloadListCsv({ resource, filter: { ...filterValues, ...filter }, sort });
    } catch (error) {
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label="ra.action.export" onClick={onClick} disabled={busy || total === 0} data-testid="export-csv">
      <DownloadIcon />
    </Button>
  );
};
