/**
 * The texts of the first screen — the login page, the shell (top bar, sidebar, tab bar, dialogs) and the
 * home page — by key path (`*`: any key at that level). The generator puts them in each language's first
 * catalogue (app/generated/catalogues/<locale>.ts); the rest (<locale>.rest.ts) is fetched together with
 * the first other page, before it renders (app/shell/lazyPage.ts). A key the first screen shows must be
 * named here, or it reads as the raw key until another page has been opened.
 */
export default [
  'ra',
  'app',
  'login',
  'register',
  'shell',
  'password',
  'errors',
  'pages',
  'common',
  'menus',
  'dashboard',
  'alarms',
  'messageCentre',
  // The top bar's broker state.
  'device.broker',
  // Live device alarms are announced on every page, the home page included (app/devices/live/DeviceAlarms.tsx).
  'device.alarm',
  // What the server refuses on the login page, the shell and the home page, by code (schemas/reasons/).
  'reasons.access',
  'reasons.request',
  'reasons.server',
  'reasons.session',
  'reasons.password',
  'reasons.signOff',
  // Tab titles of stored tabs and the document title name resources before their pages load.
  'resources.*.name',
];
