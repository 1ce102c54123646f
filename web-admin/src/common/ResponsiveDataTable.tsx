import { Children, createElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import { Datagrid, type DatagridProps, DataTable, type DataTableProps, NumberField, useRecordContext, useResourceContext, useTranslateLabel, type DataTableColumnProps } from 'react-admin';

/**
 * Every back-office list, on a phone (below the `sm` breakpoint, 600 px): only the columns that
 * matter stay in the table, and each row opens a detail panel with the rest as label/value lines
 * (a tap on the row opens it, unless the row already leads to a show page; the chevron always does),
 * instead of the table widening the page. At desktop widths it is react-admin's DataTable unchanged.
 *
 *   <ResponsiveDataTable phoneColumns={['full_name', 'status', 'actions']} rowClick="show">
 *     <DataTable.Col source="full_name" /> ...
 *   </ResponsiveDataTable>
 *
 * A column is named by its `source` (or its `label` when it has none), as the columns button does.
 */
export type ResponsiveDataTableProps = DataTableProps & { phoneColumns: readonly string[] };

type Column = ReactElement<DataTableColumnProps>;

const columnKey = (column: Column): string | undefined => column.props.source ?? (typeof column.props.label === 'string' ? column.props.label : undefined);

/** `a.b` reads record.a.b, as a column's source does. */
const valueAt = (record: Record<string, unknown>, source: string): unknown =>
  source.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), record);

const columnsOf = (children: ReactNode): Column[] => Children.toArray(children).filter((child): child is Column => isValidElement(child));

export const usePhoneLayout = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });

export const ResponsiveDataTable = ({ phoneColumns, children, ...props }: ResponsiveDataTableProps) => {
  const phone = usePhoneLayout();
  if (!phone) return <DataTable {...props}>{children}</DataTable>;
  const columns = columnsOf(children);
  const shown = columns.filter((column) => phoneColumns.includes(columnKey(column) ?? ''));
  const rest = columns.filter((column) => !shown.includes(column));
  return (
    <DataTable {...props} rowClick={rest.length && !props.rowClick ? 'expand' : props.rowClick} hiddenColumns={undefined} expand={rest.length ? <RowDetails columns={rest} /> : undefined} expandSingle sx={{ '& .RaDataTable-headerCell, & .RaDataTable-rowCell': { px: 1 }, ...props.sx }}>
      {shown}
    </DataTable>
  );
};

/** The columns a phone leaves out of the row, for one record, as DataTableCell would draw them. */
const RowDetails = ({ columns }: { columns: Column[] }) => {
  const record = useRecordContext();
  const resource = useResourceContext();
  const translateLabel = useTranslateLabel();
  if (!record) return null;
  return (
    <Box component="dl" data-testid="row-details" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(96px, 40%) 1fr', columnGap: 1.5, rowGap: 0.75 }}>
      {columns.map((column, index) => {
        const { source, label, render, field, children } = column.props;
        const value =
          column.type === DataTable.NumberCol
            ? createElement(NumberField, { ...(column.props as object), source: source ?? '' })
            : (children ?? (render ? render(record) : field ? createElement(field, { source }) : (valueAt(record, source ?? '') ?? null)?.toString()));
        const title = label === false ? '' : translateLabel({ label: label as string | undefined, resource, source });
        return (
          <Box key={columnKey(column) ?? index} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="caption" color="text.secondary" sx={{ pt: 0.25 }}>
              {title}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
              {value === '' || value === null || value === undefined ? '—' : value}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
};

/**
 * The same for the lists still drawn with react-admin's Datagrid (fields as children, each named
 * by its `source` or `label`): on a phone the other fields open under the row.
 */
export type ResponsiveDatagridProps = DatagridProps & { phoneColumns: readonly string[] };

type FieldElement = ReactElement<{ source?: string; label?: ReactNode }>;

export const ResponsiveDatagrid = ({ phoneColumns, children, ...props }: ResponsiveDatagridProps) => {
  const phone = usePhoneLayout();
  if (!phone) return <Datagrid {...props}>{children}</Datagrid>;
  const fields = Children.toArray(children).filter((child): child is FieldElement => isValidElement(child));
  const key = (field: FieldElement) => field.props.source ?? (typeof field.props.label === 'string' ? field.props.label : '');
  const shown = fields.filter((field) => phoneColumns.includes(key(field)));
  const rest = fields.filter((field) => !shown.includes(field));
  return (
    <Datagrid {...props} rowClick={rest.length && !props.rowClick ? 'expand' : props.rowClick} expand={rest.length ? <FieldDetails fields={rest} /> : undefined} expandSingle sx={{ '& .RaDatagrid-headerCell, & .RaDatagrid-rowCell': { px: 1 }, ...props.sx }}>
      {shown}
    </Datagrid>
  );
};

const FieldDetails = ({ fields }: { fields: FieldElement[] }) => {
  const resource = useResourceContext();
  const translateLabel = useTranslateLabel();
  return (
    <Box component="dl" data-testid="row-details" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(96px, 40%) 1fr', columnGap: 1.5, rowGap: 0.75 }}>
      {fields.map((field, index) => (
        <Box key={field.props.source ?? index} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="caption" color="text.secondary" sx={{ pt: 0.25 }}>
            {field.props.label === false ? '' : translateLabel({ label: field.props.label as string | undefined, resource, source: field.props.source })}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
            {field}
          </Typography>
        </Box>
      ))}
    </Box>
  );
};
