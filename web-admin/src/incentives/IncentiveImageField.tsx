import { Avatar } from '@mui/material';
import ImageIcon from '@mui/icons-material/Image';
import { useRecordContext, useTranslate } from 'react-admin';

/** The incentive's picture (`file_path` is `storage/...`, served by the api at `/storage/...`). */
export const IncentiveImageField = ({ size = 48 }: { size?: number }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const alt = String(record.incentive ?? '');
  return record.file_path ? (
    <Avatar variant="rounded" src={`/${record.file_path}`} alt={alt} sx={{ width: size, height: size }} />
  ) : (
    <Avatar variant="rounded" title={translate('pos.incentives.list.no_image')} sx={{ width: size, height: size, bgcolor: 'action.hover', color: 'text.disabled' }}>
      <ImageIcon />
    </Avatar>
  );
};
