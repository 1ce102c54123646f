import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { useIdleLogout } from './useIdleLogout';

/**
 * react-admin's layout is `min-width: fit-content` and its content a flex child, so one wide table
 * widened the whole page past the window (the app bar stopped short of the right edge). The content may
 * shrink, and a table too wide for it scrolls sideways within itself.
 */
const tablesScrollInsideThePage = {
  minWidth: 0,
  '& .RaLayout-content': { minWidth: 0 },
  '& .RaDataTable-tableWrapper, & .RaDatagrid-tableWrapper': { overflowX: 'auto' },
};

export const Layout = ({ children }: { children: ReactNode }) => {
  useIdleLogout();
  return (
    <RaLayout appBar={AppBar} menu={Menu} sx={tablesScrollInsideThePage}>
      {children}
    </RaLayout>
  );
};
