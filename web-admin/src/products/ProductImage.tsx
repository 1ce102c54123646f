import Avatar from '@mui/material/Avatar';
import ImageIcon from '@mui/icons-material/Image';
import { useRecordContext, useTranslate } from 'react-admin';

/** The product's picture (`image` is `storage/...`, served by the api at `/storage/...`), or a placeholder. */
export const ProductImage = ({ size = 48 }: { size?: number }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return record.image ? (
    <Avatar variant="rounded" src={`/${record.image}`} alt={String(record.name ?? '')} sx={{ width: size, height: size }} />
  ) : (
    <Avatar variant="rounded" title={translate('pos.catalogue.products.no_image')} sx={{ width: size, height: size, bgcolor: 'action.hover', color: 'text.disabled' }}>
      <ImageIcon />
    </Avatar>
  );
};
