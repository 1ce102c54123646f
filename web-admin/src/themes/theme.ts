import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** Deep green brand with an earthy accent; one light theme for now. */
const brand = {
  green: '#1b5e20',
  greenLight: '#4c8c4a',
  greenDark: '#003300',
  earth: '#8d6e3f',
  background: '#f3f6f3',
};

export const lightTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    mode: 'light',
    primary: { main: brand.green, light: brand.greenLight, dark: brand.greenDark, contrastText: '#ffffff' },
    secondary: { main: brand.earth, contrastText: '#ffffff' },
    background: { default: brand.background, paper: '#ffffff' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: ['Inter', 'Roboto', '"Helvetica Neue"', 'Arial', 'sans-serif'].join(','),
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  sidebar: { width: 240, closedWidth: 56 },
  components: {
    ...defaultTheme.components,
    MuiAppBar: {
      styleOverrides: { root: { boxShadow: 'none', borderBottom: `1px solid ${brand.greenDark}` } },
    },
    MuiPaper: {
      styleOverrides: { elevation1: { boxShadow: '0 1px 3px rgba(16, 40, 16, 0.08), 0 1px 2px rgba(16, 40, 16, 0.06)' } },
    },
    MuiButton: { defaultProps: { disableElevation: true } },
    // A list's main column may shrink below its content's width, so on a phone wide content (tabs,
    // a table) scrolls inside its card instead of widening the page.
    RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
    RaMenuItemLink: {
      styleOverrides: {
        root: {
          borderLeft: '3px solid transparent',
          '&.RaMenuItemLink-active': {
            borderLeft: `3px solid ${brand.green}`,
            backgroundColor: 'rgba(27, 94, 32, 0.08)',
            color: brand.green,
            '& .RaMenuItemLink-icon': { color: brand.green },
          },
        },
      },
    },
  },
};
