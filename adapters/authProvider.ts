/**
 * Session of the legacy contract: login by phone and password answers the token, the user, the menus and
 * the permission codes. All of them are kept in localStorage, so a reload does not need the server, and
 * all of them are cleared together on login and logout.
 */
import type { AuthProvider } from 'ra-core';
import { ApiError, envelopeText, getToken, setToken } from './http';
import { dataProvider, wasAnnounced, type CallAnswer } from './dataProvider';

export const USER_KEY = 'userInfo';
export const MENUS_KEY = 'menus';
export const PERMISSIONS_KEY = 'permissions';
/** The tab bar keeps its list here; it belongs to the session, so logout clears it. */
export const TABS_KEY = 'tabList';
export const REMEMBER_KEY = 'loginRemember';
/** The server's time zone, which every wall-clock time of the API is in (the session answers it). */
export const TIME_ZONE_KEY = 'serverTimeZone';
/** Until a session has said otherwise: the server's default (server/config.ts). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** Remembered login details last 30 days, like the legacy login cookies. */
const REMEMBER_DAYS = 30;
/** The legacy console waits a second after showing "login expired" before it goes to the login page. */
export const EXPIRED_REDIRECT_MS = 1000;

export interface SessionUser {
  fId: number | string;
  fChineseName?: string;
  fPhone?: string;
  userName?: string;
  fAdmin?: number;
  fUserType?: number;
  fPic?: string | null;
}

export interface MenuNode {
  id: number | string;
  parentId?: number | string | null;
  menuName: string;
  menuUri?: string | null;
  icon?: string | null;
  component?: string | null;
  sort?: number;
  permissions?: string | null;
  hidden?: boolean;
  title?: Partial<Record<string, string>>;
  children?: MenuNode[];
}

export interface LoginParams {
  username: string;
  password: string;
  remember?: boolean;
}

/** What a sign-in answers, or a session read (without the token): what is kept of the session. */
type SessionAnswer = Partial<CallAnswer<'session.login'>>;

function readJson<T>(key: string, fallback: T): T {
  try {
    const text = localStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function getStoredUser(): SessionUser | null {
  return readJson<SessionUser | null>(USER_KEY, null);
}

export function getStoredMenus(): MenuNode[] {
  const menus = readJson<unknown>(MENUS_KEY, []);
  return Array.isArray(menus) ? (menus as MenuNode[]) : [];
}

export function getStoredPermissions(): string[] {
  const codes = readJson<unknown>(PERMISSIONS_KEY, []);
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === 'string') : [];
}

function storeSession(answer: SessionAnswer): void {
  if (answer.token) setToken(answer.token);
  if (answer.user) localStorage.setItem(USER_KEY, JSON.stringify(answer.user));
  if (answer.menus) localStorage.setItem(MENUS_KEY, JSON.stringify(answer.menus));
  if (answer.permissions) localStorage.setItem(PERMISSIONS_KEY, JSON.stringify(answer.permissions));
  if (answer.timeZone) localStorage.setItem(TIME_ZONE_KEY, answer.timeZone);
}

/** The time zone the server's times are in: the last session's answer, else the server's default. */
export function getServerTimeZone(): string {
  return localStorage.getItem(TIME_ZONE_KEY) || DEFAULT_TIME_ZONE;
}

export function clearSession(): void {
  setToken(null);
  for (const key of [USER_KEY, MENUS_KEY, PERMISSIONS_KEY, TABS_KEY]) localStorage.removeItem(key);
}

export interface RememberedLogin {
  account: string;
  password: string;
}

export function getRememberedLogin(): RememberedLogin | null {
  const saved = readJson<(RememberedLogin & { expires: number }) | null>(REMEMBER_KEY, null);
  if (!saved) return null;
  if (!saved.expires || saved.expires < Date.now()) {
    localStorage.removeItem(REMEMBER_KEY);
    return null;
  }
  return { account: saved.account ?? '', password: saved.password ?? '' };
}

function rememberLogin(params: LoginParams, account: string): void {
  if (params.remember) {
    const expires = Date.now() + REMEMBER_DAYS * 24 * 3600 * 1000;
    localStorage.setItem(REMEMBER_KEY, JSON.stringify({ account, password: params.password, expires }));
  } else {
    localStorage.removeItem(REMEMBER_KEY);
  }
}

/** Re-reads user, menus and permissions for a stored token (a role may have changed since the login). */
export async function refreshSession(): Promise<void> {
  if (!getToken()) return;
  const answer = await dataProvider.call('session.info', undefined, { method: 'GET' });
  if (answer.data) storeSession(answer.data);
}

export function statusOf(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

export const authProvider: AuthProvider = {
  async login(params: LoginParams) {
    const account = String(params.username ?? '').trim();
    clearSession();
    const answer = await dataProvider.call('session.login', { userName: account, password: params.password });
    const data: SessionAnswer = answer.data ?? {};
    if (!data.token && !getToken()) throw new Error(envelopeText(answer) || 'login failed');
    storeSession(data);
    rememberLogin(params, account);
    return { redirectTo: '/home' };
  },

  async logout() {
    // The server is told when there is still a token to end; an expired one answers 700, which no one
    // needs to hear about while leaving.
    if (getToken()) {
      try {
        await dataProvider.call('session.logout', {}, { quiet: true });
      } catch {
        /* the session is cleared locally whatever the server says */
      }
    }
    clearSession();
    return '/login';
  },

  async checkAuth() {
    if (!getToken()) throw { message: false, redirectTo: '/login' };
  },

  async checkError(error) {
    // A named call's failure the shell announced: it leads to the login page itself (app/shell/useApiErrors.ts).
    if (wasAnnounced(error)) return;
    if (statusOf(error) === 700) {
      // The shell shows the expiry message first; leaving at once would hide it.
      await new Promise((resolve) => setTimeout(resolve, EXPIRED_REDIRECT_MS));
      throw { message: false, redirectTo: '/login' };
    }
  },

  async getPermissions() {
    return getStoredPermissions();
  },

  async getIdentity() {
    const user = getStoredUser();
    if (!user) throw new Error('no user');
    return {
      id: user.fId,
      fullName: user.fChineseName || user.userName || user.fPhone || '',
      avatar: user.fPic || undefined,
      phone: user.fPhone,
      fAdmin: user.fAdmin,
    };
  },
};

export default authProvider;
