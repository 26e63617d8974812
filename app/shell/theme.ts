/** A calm back-office theme: 14 px text, dense tables and inputs, a dark sidebar next to a light page. */
import { defaultTheme } from 'react-admin';
import type { RaThemeOptions } from 'react-admin';

export const SIDEBAR_WIDTH = 256;
export const SIDEBAR_COLLAPSED_WIDTH = 64;
export const TOPBAR_HEIGHT = 56;
export const TABBAR_HEIGHT = 40;
/** The top bar's row, and the side menu's title row beside it: the same height, so their bottom lines meet. */
export const TOPBAR_ROW = { height: TOPBAR_HEIGHT, flexShrink: 0, display: 'flex', alignItems: 'center', gap: 1 } as const;

export const sidebarColors = {
  background: '#001529',
  backgroundNested: '#000c17',
  text: 'rgba(255,255,255,0.72)',
  textActive: '#ffffff',
  active: '#1677ff',
  hover: 'rgba(255,255,255,0.08)',
};

const fontFamily = [
  '-apple-system',
  'BlinkMacSystemFont',
  '"Segoe UI"',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  '"WenQuanYi Micro Hei"',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',');

/**
 * A user whose system asks for less motion gets none: transitions take no time (menus, dialogs and
 * drawers appear at once), buttons show no ripple, and what would move without end (a spinner, a
 * loading bar, a pulsing placeholder) stands still.
 */
const reducedMotion = typeof window !== 'undefined' && (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);
const NO_MOTION = { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 };

export const theme: RaThemeOptions = {
  ...defaultTheme,
  ...(reducedMotion ? { transitions: { duration: NO_MOTION, create: () => 'none' } } : {}),
  palette: {
    mode: 'light',
    primary: { main: '#1677ff' },
    secondary: { main: '#001529' },
    background: { default: '#f0f2f5', paper: '#ffffff' },
    text: { primary: 'rgba(0,0,0,0.85)', secondary: 'rgba(0,0,0,0.55)' },
  },
  shape: { borderRadius: 6 },
  typography: {
    fontFamily,
    fontSize: 14,
    htmlFontSize: 16,
    button: { textTransform: 'none', fontWeight: 500 },
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600, fontSize: '1rem' },
  },
  sidebar: { width: SIDEBAR_WIDTH, closedWidth: SIDEBAR_COLLAPSED_WIDTH },
  components: {
    ...defaultTheme.components,
    MuiButtonBase: { defaultProps: { disableRipple: reducedMotion } },
    ...(reducedMotion
      ? { MuiCssBaseline: { styleOverrides: { '*, *::before, *::after': { animationDuration: '0s !important', animationIterationCount: '1 !important', transitionDuration: '0s !important', scrollBehavior: 'auto !important' } } } }
      : {}),
    MuiButton: { defaultProps: { disableElevation: true, size: 'small' } },
    MuiIconButton: { defaultProps: { size: 'small' } },
    MuiTextField: { defaultProps: { size: 'small', variant: 'outlined' } },
    MuiFormControl: { defaultProps: { size: 'small', variant: 'outlined' } },
    MuiTable: { defaultProps: { size: 'small' } },
    MuiTableCell: {
      styleOverrides: {
        head: { fontWeight: 600, backgroundColor: '#fafafa', whiteSpace: 'nowrap' },
        root: { padding: '8px 12px' },
      },
    },
    MuiPaper: { defaultProps: { elevation: 0 }, styleOverrides: { root: { backgroundImage: 'none' } } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiDialog: { defaultProps: { maxWidth: 'sm' } },
    MuiTooltip: { defaultProps: { arrow: true } },
    RaList: { styleOverrides: { root: { '& .RaList-main': { marginTop: 0 } } } },
  } as RaThemeOptions['components'],
};
