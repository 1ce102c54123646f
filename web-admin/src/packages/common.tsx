import InputAdornment from '@mui/material/InputAdornment';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { NumberInput, type NumberInputProps, SaveButton, Toolbar, usePermissions, useRecordContext, useTranslate } from 'react-admin';

/**
 * Pieces the catalogue screens share (packages, products, company banks, stockist packages).
 */

/** Only administrators change the catalogue; finance staff read it (BUSINESS-RULES.md §6). */
export const useCanWrite = () => usePermissions().permissions === 'admin';

/** An amount in naira, typed with the ₦ sign in front. */
export const MoneyInput = (props: NumberInputProps) => (
  <NumberInput min={0} step={0.01} slotProps={{ input: { startAdornment: <InputAdornment position="start">₦</InputAdornment> } }} {...props} />
);

/** A number with a unit after it (PV, %). */
export const UnitInput = ({ unit, ...props }: NumberInputProps & { unit: string }) => (
  <NumberInput slotProps={{ input: { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } }} {...props} />
);

/** A point value with its PV suffix: "150 PV". */
export const PointValue = ({ source = 'point_value' }: { source?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return <>{translate('pos.catalogue.pv', { value: Number(record[source] ?? 0).toLocaleString('en-US') })}</>;
};

/** The seed's own empty-list text, inside the table. */
export const EmptyText = ({ text }: { text: string }) => {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="catalogue-empty">
      {translate(text)}
    </Typography>
  );
};

/**
 * The forms' toolbar: Save (and whatever the kind allows besides, e.g. a bank's Delete) for
 * administrators; nothing for finance staff, who read only. Packages, products and stockist
 * packages cannot be deleted, so react-admin's default Delete button is not offered.
 */
export const CatalogueToolbar = ({ children }: { children?: ReactNode }) =>
  useCanWrite() ? (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {children}
    </Toolbar>
  ) : null;
