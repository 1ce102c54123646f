import { Box, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { useBasename } from 'react-admin';
import { formatNaira } from '../common/NairaField';

/**
 * An event's data or metadata laid out as labelled lines, nested objects indented under their key.
 * Money fields (named `*_kobo`, events.ts) show the naira beside the exact kobo; ids that name a
 * member open the member.
 */
const MEMBER_KEYS = new Set(['member_id', 'beneficiary_id', 'sponsor_id', 'placement_parent_id', 'placer_id']);

const labelOf = (key: string) => key.replace(/_/g, ' ');

const Scalar = ({ name, value }: { name: string; value: unknown }) => {
  const basename = useBasename();
  if (value === null || value === undefined) return <Typography component="span" variant="body2" color="text.secondary">—</Typography>;
  if (name.endsWith('_kobo') && typeof value === 'number') {
    return (
      <Typography component="span" variant="body2" data-testid={`money-${name}`}>
        <strong>{formatNaira(value / 100)}</strong>{' '}
        <Typography component="span" variant="caption" color="text.secondary">
          ({value.toLocaleString('en-US')} kobo)
        </Typography>
      </Typography>
    );
  }
  if (MEMBER_KEYS.has(name) && typeof value === 'string') {
    return (
      <Link to={`${basename}/members/${value}/show`} style={{ fontFamily: 'monospace', fontSize: 13 }}>
        {value}
      </Link>
    );
  }
  return (
    <Typography component="span" variant="body2" sx={{ fontFamily: typeof value === 'string' && /^[0-9a-f-]{20,}$/i.test(value) ? 'monospace' : undefined, wordBreak: 'break-word' }}>
      {typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)}
    </Typography>
  );
};

export const DataView = ({ value, name = '', depth = 0 }: { value: unknown; name?: string; depth?: number }) => {
  if (value === null || typeof value !== 'object') return <Scalar name={name} value={value} />;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i + 1), v] as const) : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <Typography variant="body2" color="text.secondary">—</Typography>;
  return (
    <Box sx={{ pl: depth > 0 ? 2 : 0, borderLeft: depth > 0 ? 2 : 0, borderColor: 'divider' }}>
      {entries.map(([key, child]) => {
        const nested = child !== null && typeof child === 'object';
        return (
          <Box key={key} sx={{ display: 'flex', flexDirection: nested ? 'column' : { xs: 'column', sm: 'row' }, gap: nested ? 0.5 : { xs: 0, sm: 2 }, py: 0.5 }}>
            <Typography variant="body2" color="text.secondary" sx={{ minWidth: 200, flexShrink: 0 }}>
              {labelOf(key)}
            </Typography>
            <DataView value={child} name={key} depth={depth + 1} />
          </Box>
        );
      })}
    </Box>
  );
};
