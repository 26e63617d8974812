/**
 * Where the console lives (spec 002 §9, base path /homeschool), read by the build, the console's router
 * and the server that serves it. The API stays at the root: /login, /biz/…, /api/….
 */
export const CONSOLE_BASE = '/homeschool';

/** The console's entry (spec 002 §2), as the console's router names it: / and the bare base lead there. */
export const HOME_PATH = '/home';
