import { ImageField, ImageInput, SimpleForm, TextInput, required, useNotify } from 'react-admin';
import { productCreateFields } from '@portal/services/contracts/catalogue';
import { CatalogueToolbar, MoneyInput } from '../packages/common';
import { serverSchemaValidator, withoutEmpties } from '../common/serverSchema';

/**
 * The API's own rules (contracts/catalogue.ts) on the text fields, at the fields. The image is
 * checked by the drop zone here (type, 500 kB) and by the server on its content.
 */
const validate = serverSchemaValidator(productCreateFields, ({ image: _image, ...values }) => withoutEmpties(values));

export const MAX_IMAGE_BYTES = 500_000;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/**
 * The API takes the image inside the JSON body as a data URL; a stored path left as it is keeps
 * the image, null removes it (services/src/catalogue/admin-routes.ts).
 */
export const productTransform = async (data: Record<string, any>) => {
  const image = data.image;
  if (image && typeof image === 'object' && image.rawFile instanceof File) return { ...data, image: await readAsDataUrl(image.rawFile) };
  if (image && typeof image === 'object') return { ...data, image: image.path ?? undefined };
  return data;
};

/** A stored path is shown as the picture it names. */
const showStored = (value: unknown) => (typeof value === 'string' ? { src: `/${value}`, title: value.split('/').pop(), path: value } : value);

/**
 * Name and price required, description free text, an optional image of at most 500 kB (seed 002
 * §5): a bigger file is refused with the seed's warning and nothing is kept.
 */
export const ProductForm = () => {
  const notify = useNotify();
  return (
    <SimpleForm validate={validate} noValidate toolbar={<CatalogueToolbar />} sx={{ maxWidth: 640 }}>
      <TextInput source="name" validate={required()} fullWidth />
      <MoneyInput source="worth" label="resources.products.fields.price" validate={required()} fullWidth />
      <TextInput source="description" multiline minRows={3} fullWidth />
      <ImageInput
        source="image"
        accept={{ 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/webp': ['.webp'] }}
        maxSize={MAX_IMAGE_BYTES}
        format={showStored}
        helperText="pos.catalogue.products.image_hint"
        options={{ onDropRejected: () => notify('pos.catalogue.products.image_too_large', { type: 'warning' }) }}
      >
        <ImageField source="src" title="title" />
      </ImageInput>
    </SimpleForm>
  );
};
