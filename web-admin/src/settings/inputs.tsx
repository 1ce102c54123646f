import { createContext, useContext } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import {
  NumberInput,
  type NumberInputProps,
  SelectInput,
  type SelectInputProps,
  TextInput,
  type TextInputProps,
  type Validator,
  maxValue,
  minValue,
  number,
  required,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { formatNaira } from '../common/NairaField';

/** Set by a card or dialog: finance staff see the values but cannot change them. */
export const SettingsReadOnly = createContext(false);

type Unit = 'naira' | 'percent' | 'pv' | 'days' | 'months';

const Adornment = ({ unit }: { unit: Unit }) => {
  const translate = useTranslate();
  if (unit === 'naira') return <InputAdornment position="start">₦</InputAdornment>;
  const text = unit === 'percent' ? '%' : translate(`pos.settings.units.${unit}`);
  return <InputAdornment position="end">{text}</InputAdornment>;
};

/** The amount typed, as naira with grouping under a money input (₦1,250,000.00). */
const NairaHint = ({ source }: { source: string }) => {
  const value = useWatch({ name: source });
  const amount = Number(value);
  return <span>{value === null || value === '' || value === undefined || !Number.isFinite(amount) ? '\u00a0' : formatNaira(amount)}</span>;
};

/** A number setting with its unit beside it (₦ before, % / PV / days after). */
export const SettingNumberInput = ({ unit, slotProps, ...props }: NumberInputProps & { unit?: Unit }) => {
  const readOnly = useContext(SettingsReadOnly);
  const adornment = unit ? <Adornment unit={unit} /> : undefined;
  const input = unit === 'naira' ? { startAdornment: adornment } : { endAdornment: adornment };
  return (
    <NumberInput
      fullWidth
      readOnly={readOnly}
      helperText={unit === 'naira' ? <NairaHint source={props.source} /> : undefined}
      slotProps={{ ...slotProps, input: { ...(unit ? input : {}), ...(slotProps as { input?: object } | undefined)?.input } } as NumberInputProps['slotProps']}
      {...props}
    />
  );
};

export const SettingTextInput = (props: TextInputProps) => {
  const readOnly = useContext(SettingsReadOnly);
  return <TextInput fullWidth readOnly={readOnly} {...props} />;
};

export const SettingSelectInput = (props: SelectInputProps) => {
  const readOnly = useContext(SettingsReadOnly);
  return <SelectInput fullWidth readOnly={readOnly} {...props} />;
};

const v = (key: string) => `pos.settings.validation.${key}`;

/** Client rules matching the server's (contracts/settings.ts), with the seed's warnings (002 §5). */
export const rules = {
  /** A required number with the seed's warning, optionally bounded. */
  number: (
    message: string,
    bounds: { min?: number; max?: number; rangeMessage?: string; minMessage?: string; maxMessage?: string; whole?: boolean } = {},
  ): Validator[] => {
    const list: Validator[] = [required(v(message)), number(v(message))];
    if (bounds.whole) list.push((value: unknown) => (Number.isInteger(Number(value)) ? undefined : v('whole_number')));
    const minMessage = bounds.minMessage ?? bounds.rangeMessage;
    const maxMessage = bounds.maxMessage ?? bounds.rangeMessage;
    if (bounds.min !== undefined) list.push(minValue(bounds.min, minMessage ? v(minMessage) : undefined));
    if (bounds.max !== undefined) list.push(maxValue(bounds.max, maxMessage ? v(maxMessage) : undefined));
    return list;
  },
  /** Empty or a number (the seed's "empty or numeric" money fields). */
  optionalNumber: (message: string, min = 0): Validator[] => [number(v(message)), minValue(min, v(message))],
  percent: (message: string): Validator[] => rules.number(message, { min: 0, max: 100, rangeMessage: 'percent_range' }),
  required: (): Validator => required(v('required')),
  key: v,
};
