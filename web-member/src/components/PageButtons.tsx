import { Box, PaginationItem } from '@mui/material';
import { pageWindow } from '../lib/page-window';

/**
 * A server-paged table's pager: first, previous, a window of `size` page buttons, next, last
 * (seed 000 §9: "5 page buttons"). MUI's <Pagination> mixes in the first and last pages and
 * ellipses, so its number of page buttons changes with the current page; this one never does.
 */
export function PageButtons({ page, lastPage, onChange, label, size = 5, disabled }: { page: number; lastPage: number; onChange: (page: number) => void; label: string; size?: number; disabled?: boolean }) {
  if (lastPage <= 1) return null;
  const go = (p: number) => () => {
    if (p !== page && p >= 1 && p <= lastPage) onChange(p);
  };
  const atStart = page <= 1;
  const atEnd = page >= lastPage;
  return (
    <Box component="nav" aria-label={label} sx={{ mt: 2 }}>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', justifyContent: 'center', alignItems: 'center', gap: 0.25 }}>
        <li>
          <PaginationItem type="first" aria-label="Go to first page" disabled={disabled || atStart} onClick={go(1)} sx={{ display: { xs: 'none', sm: 'inline-flex' } }} />
        </li>
        <li>
          <PaginationItem type="previous" aria-label="Go to previous page" disabled={disabled || atStart} onClick={go(page - 1)} />
        </li>
        {pageWindow(page, lastPage, size).map((p) => (
          <li key={p}>
            <PaginationItem
              type="page"
              page={p}
              selected={p === page}
              disabled={disabled}
              color="primary"
              aria-label={p === page ? `page ${p}` : `Go to page ${p}`}
              aria-current={p === page ? 'page' : undefined}
              onClick={go(p)}
            />
          </li>
        ))}
        <li>
          <PaginationItem type="next" aria-label="Go to next page" disabled={disabled || atEnd} onClick={go(page + 1)} />
        </li>
        <li>
          <PaginationItem type="last" aria-label="Go to last page" disabled={disabled || atEnd} onClick={go(lastPage)} sx={{ display: { xs: 'none', sm: 'inline-flex' } }} />
        </li>
      </Box>
    </Box>
  );
}
