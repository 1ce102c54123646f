import { alpha, createTheme } from '@mui/material/styles';

const green = {
  50: '#eef7f1',
  100: '#d5ecdc',
  200: '#aedbbd',
  300: '#7fc399',
  400: '#4fa773',
  500: '#2f8a57',
  600: '#237146',
  700: '#1c5c3a',
  800: '#174a30',
  900: '#113824',
};

const ink = '#17261d';

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: green[600], light: green[400], dark: green[800], contrastText: '#ffffff' },
    secondary: { main: '#b7832f', light: '#d9a955', dark: '#8a5f1c', contrastText: '#ffffff' },
    success: { main: '#2e7d32' },
    background: { default: '#f4f7f5', paper: '#ffffff' },
    text: { primary: ink, secondary: '#5a6b61' },
    divider: '#e3e9e5',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", system-ui, -apple-system, "Helvetica Neue", Roboto, Arial, sans-serif',
    h1: { fontWeight: 700, letterSpacing: '-0.02em' },
    h2: { fontWeight: 700, letterSpacing: '-0.02em' },
    h3: { fontWeight: 700, letterSpacing: '-0.015em' },
    h4: { fontWeight: 700, letterSpacing: '-0.01em', fontSize: '1.75rem' },
    h5: { fontWeight: 700, fontSize: '1.35rem' },
    h6: { fontWeight: 650, fontSize: '1.05rem' },
    subtitle1: { fontWeight: 600 },
    subtitle2: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600, letterSpacing: 0 },
    overline: { fontWeight: 700, letterSpacing: '0.08em' },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        body: { WebkitFontSmoothing: 'antialiased' },
        'a': { color: green[600] },
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: { borderRadius: 8, paddingInline: 18 },
        sizeLarge: { paddingBlock: 11, fontSize: '0.975rem' },
      },
    },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiOutlinedInput: {
      styleOverrides: {
        root: {
          backgroundColor: '#fff',
          '& .MuiOutlinedInput-notchedOutline': { borderColor: '#d4ddd7' },
          '&:hover .MuiOutlinedInput-notchedOutline': { borderColor: green[400] },
        },
      },
    },
    MuiPaper: {
      styleOverrides: {
        rounded: { borderRadius: 14 },
        outlined: { borderColor: '#e3e9e5' },
      },
    },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: {
        root: { borderRadius: 14, borderColor: '#e3e9e5', boxShadow: '0 1px 2px rgba(16, 40, 26, 0.04)' },
      },
    },
    MuiChip: { styleOverrides: { root: { fontWeight: 600 } } },
    MuiDialog: { styleOverrides: { paper: { borderRadius: 16 } } },
    MuiDialogTitle: { styleOverrides: { root: { fontWeight: 700 } } },
    MuiLink: { defaultProps: { underline: 'hover' }, styleOverrides: { root: { fontWeight: 600 } } },
    MuiTooltip: { styleOverrides: { tooltip: { fontSize: '0.8rem', backgroundColor: alpha(ink, 0.92), maxWidth: 280 } } },
    MuiListItemButton: {
      styleOverrides: {
        root: {
          borderRadius: 8,
          '&.Mui-selected': { backgroundColor: alpha(green[400], 0.18), color: '#fff' },
        },
      },
    },
  },
});

export const brandColors = { green, ink };
