import { Box, Typography } from '@mui/material';
import {
  ImageField,
  ImageInput,
  ReferenceInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  required,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { incentiveCreateFields } from '@portal/services/contracts/catalogue';
import { IncentiveImageField } from './IncentiveImageField';
import { MoneyInput } from '../packages/common';
import { serverSchemaValidator, withoutEmpties } from '../common/serverSchema';

/** The API's own rules (contracts/catalogue.ts) on rank, incentive and worth, at the fields; the image is the drop zone's and the server's. */
const validate = serverSchemaValidator(incentiveCreateFields, ({ image: _image, ...values }) => withoutEmpties(values));

/** The seeds' limit: an image over 500 kB is refused here with their warning, and again by the server. */
export const MAX_IMAGE_BYTES = 500_000;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/**
 * Edit and create send JSON to /api/admin/incentives: a newly chosen image goes as a data URL in
 * `image`; with no image chosen the field is dropped and the current image stays (seed 002 §5).
 */
export const incentiveTransform = async (data: Record<string, any>) => {
  const { image, ...rest } = data;
  const file = image?.rawFile;
  return file instanceof File ? { ...rest, image: await readAsDataUrl(file) } : rest;
};

const CurrentImage = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record?.file_path) return null;
  return (
    <Box sx={{ mb: 1 }}>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
        {translate('pos.incentives.edit.current_image')}
      </Typography>
      <IncentiveImageField size={96} />
    </Box>
  );
};

export const IncentiveForm = () => {
  const notify = useNotify();
  return (
    // No delete: an incentive is edited, never removed (the catalogue keeps it for past claims).
    <SimpleForm validate={validate} noValidate sx={{ maxWidth: 560 }} toolbar={<Toolbar><SaveButton /></Toolbar>}>
      <ReferenceInput source="rank_id" reference="ranks" sort={{ field: 'points', order: 'ASC' }} perPage={100}>
        <SelectInput optionText="name" validate={required('pos.incentives.edit.rank_required')} fullWidth />
      </ReferenceInput>
      <TextInput source="incentive" validate={required()} fullWidth />
      <MoneyInput source="worth" validate={required()} fullWidth />
      <CurrentImage />
      <ImageInput
        source="image"
        accept={{ 'image/jpeg': [], 'image/png': [], 'image/webp': [] }}
        maxSize={MAX_IMAGE_BYTES}
        helperText="pos.incentives.edit.image_help"
        options={{ onDropRejected: () => notify('pos.incentives.edit.image_too_large', { type: 'warning' }) }}
      >
        <ImageField source="src" title="title" />
      </ImageInput>
    </SimpleForm>
  );
};
