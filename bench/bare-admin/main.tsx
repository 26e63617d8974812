/**
 * The yardstick of the console's first screen: the smallest useful react-admin 5 app, built with the
 * console's own react, react-admin, @mui/material and Vite (the repository's node_modules). It holds
 * react-admin's default layout and login page, a dashboard, one resource listed with <Datagrid>, and
 * the console's default language: react-admin's Chinese pack (@haxqer/ra-language-chinese, zh-CN)
 * through ra-i18n-polyglot. Any login succeeds; the rows live in memory.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Admin, Datagrid, List, Resource, TextField, Title } from 'react-admin';
import type { AuthProvider, DataProvider } from 'react-admin';
import { Card, CardContent } from '@mui/material';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import chineseModule from '@haxqer/ra-language-chinese';

const chinese = (chineseModule as unknown as { default?: object }).default ?? chineseModule;
const i18nProvider = polyglotI18nProvider(() => chinese as never, 'zh-CN');

const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `设备 ${i + 1}`, number: `D${1000 + i}` }));

const dataProvider = {
  getList: async (_resource: string, { pagination }: { pagination?: { page: number; perPage: number } }) => {
    const { page = 1, perPage = 10 } = pagination ?? {};
    return { data: rows.slice((page - 1) * perPage, page * perPage), total: rows.length };
  },
  getOne: async (_resource: string, { id }: { id: number }) => ({ data: rows.find((r) => r.id === Number(id))! }),
  getMany: async (_resource: string, { ids }: { ids: number[] }) => ({ data: rows.filter((r) => ids.includes(r.id)) }),
} as unknown as DataProvider;

const KEY = 'bare-user';
const authProvider: AuthProvider = {
  login: async ({ username }) => localStorage.setItem(KEY, username),
  logout: async () => localStorage.removeItem(KEY),
  checkAuth: async () => (localStorage.getItem(KEY) ? undefined : Promise.reject()),
  checkError: async () => undefined,
  getIdentity: async () => ({ id: 1, fullName: localStorage.getItem(KEY) ?? '' }),
};

const Dashboard = () => (
  <Card>
    <Title title="首页" />
    <CardContent>欢迎</CardContent>
  </Card>
);

const DeviceList = () => (
  <List>
    <Datagrid>
      <TextField source="id" />
      <TextField source="name" />
      <TextField source="number" />
    </Datagrid>
  </List>
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Admin dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} dashboard={Dashboard} requireAuth disableTelemetry>
      <Resource name="devices" list={DeviceList} />
    </Admin>
  </StrictMode>,
);
