import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { useIdleLogout } from './useIdleLogout';

export const Layout = ({ children }: { children: ReactNode }) => {
  useIdleLogout();
  return (
    <RaLayout appBar={AppBar} menu={Menu}>
      {children}
    </RaLayout>
  );
};
